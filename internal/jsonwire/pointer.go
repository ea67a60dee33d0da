package jsonwire

import "strings"

// The reference tokens of a JSON Pointer (RFC 6901), the paths of every
// error and change: the one statement of their escaping, for coerce and
// the packages beside it.

// AppendPointerToken appends "/" and key escaped as RFC 6901 asks: "~" as
// "~0", "/" as "~1".
func AppendPointerToken(dst []byte, key string) []byte {
	dst = append(dst, '/')
	for i := 0; i < len(key); i++ {
		switch c := key[i]; c {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// PointerToken returns "/" and key escaped as RFC 6901 asks.
func PointerToken(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return "/" + key
	}
	return string(AppendPointerToken(nil, key))
}

// UnescapePointerToken is the key a reference token (between two slashes)
// stands for: PointerToken's inverse, "~1" read before "~0" as RFC 6901
// asks, so that "~01" is "~1".
func UnescapePointerToken(tok string) string {
	if strings.IndexByte(tok, '~') < 0 {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}
