package jsonwire

import "testing"

// A key escaped as a JSON Pointer token reads back as itself, whatever
// tildes and slashes it holds (RFC 6901: "~1" is read before "~0").
func TestPointerTokenRoundTrip(t *testing.T) {
	for _, key := range []string{"", "a", "a/b", "~", "~1", "~0", "~01", "/~", "~/~/", "é~"} {
		tok := PointerToken(key)
		if got := UnescapePointerToken(tok[1:]); got != key {
			t.Errorf("PointerToken(%q) = %q, which reads back as %q", key, tok, got)
		}
	}
	if got := UnescapePointerToken("~01"); got != "~1" {
		t.Errorf(`"~01" reads as %q, want "~1"`, got)
	}
}
