package coercetest

import (
	"encoding/json"
	"testing"

	"github.com/coerce-go/coerce"
)

// TestFormsNeverConform checks the rules themselves: Variants drops a form
// whose value conforms already, but the rules should never make one, or
// they have misread a declared type.
func TestFormsNeverConform(t *testing.T) {
	types := []string{
		"any", "str", "int", "float", "bool", "null", "list", "dict",
		"list[int]", "list[str]", "dict[str, int]", "Optional[int]", "Optional[str]",
		"Optional[list[str]]", "str | list[str]", "dict | str", "int | bool", "bool | int",
		"int | float", "bool | str", "str | bool", "float | str", "list[int] | list[str]",
		"list[str] | dict", "null | bool | int | float", "dict | list | null",
	}
	values := []any{
		nil, true, false, json.Number("0"), json.Number("1"), json.Number("5"),
		json.Number("2.5"), json.Number("-0"), json.Number("1e21"),
		json.Number("9007199254740993"), "", "null", "5", "true", "True", "hello",
		`{"a": 1}`, `[1, "x"]`, "[]", "{}", []any{}, []any{json.Number("1")}, []any{"a"},
		map[string]any{}, map[string]any{"a": json.Number("1")},
	}
	for _, decl := range types {
		typ := coerce.MustParseType(decl)
		for _, v := range values {
			if !typ.Conforms(v) {
				continue
			}
			for _, b := range breakValue(typ, v, v) {
				if typ.Conforms(b.sent) {
					t.Errorf("%q, valid %#v: form %s sends %#v, which conforms", decl, v, b.form, b.sent)
				}
			}
		}
	}
}

func TestSameNumber(t *testing.T) {
	tests := []struct {
		a, b json.Number
		want bool
	}{
		{"5", "5", true},
		{"5", "5.0", true},
		{"5", "0.5e1", true},
		{"5", "500e-2", true},
		{"0", "-0", true},
		{"0", "0.0e10", true},
		{"-5", "5", false},
		{"1e21", "1000000000000000000000", true},
		{"9007199254740992", "9007199254740993", false},
		{"0.1", "0.10", true},
		{"0.1", "0.1000000000000000055511151231257827", false},
		{"1e999999999", "1e999999999", true},
		{"1e999999999999999999999", "1e999999999999999999999", true}, // beyond int: compared as text
		{"5", "five", false},
	}
	for _, tt := range tests {
		if got := sameNumber(tt.a, tt.b); got != tt.want {
			t.Errorf("sameNumber(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := sameNumber(tt.b, tt.a); got != tt.want {
			t.Errorf("sameNumber(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestIsJSONNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-0": true, "5": true, "-12.5e+3": true, "1E5": true, "0.5": true,
		"": false, "-": false, "05": false, "+5": false, ".5": false, "5.": false,
		"1e": false, " 5": false, "5 ": false, "0x10": false, "NaN": false, "1_000": false,
	} {
		if got := isJSONNumber(s); got != want {
			t.Errorf("isJSONNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestEncodeStyles(t *testing.T) {
	v := map[string]any{
		"b": []any{json.Number("1"), 2.5, true, nil},
		"a": "<é 😀 \u2028>",
	}
	tests := []struct {
		st   style
		want string
	}{
		{compactStyle, `{"a":"<é 😀 \u2028>","b":[1,2.5,true,null]}`},
		{pythonStyle, `{"a": "<\u00e9 \ud83d\ude00 \u2028>", "b": [1, 2.5, true, null]}`},
	}
	for _, tt := range tests {
		if got := encode(v, tt.st); got != tt.want {
			t.Errorf("encode(%+v) = %s, want %s", tt.st, got, tt.want)
		}
	}
}

// TestFailsForSure: a value that certainly fails is one coercion reports
// an error for; the others might convert.
func TestFailsForSure(t *testing.T) {
	tests := []struct {
		declared string
		sent     any
		want     bool
	}{
		{"int", "abc", true},
		{"int", "5", false},
		{"int", " 5 ", false}, // a numeric string, with spaces
		{"int", 5.5, true},
		{"int", true, false},
		{"int", map[string]any{}, true},
		{"float", []any{}, true},
		{"bool", "yes", false},
		{"bool", "maybe", true},
		{"bool", 2.0, true},
		{"bool", 1.0, false},
		{"str", map[string]any{"a": 1.0}, false},
		{"str", 5.0, false},
		{"null", "x", true},
		{"null", "", false},
		{"list[int]", map[string]any{}, true},
		{"list[int]", "[1]", false},
		{"list[int]", "one", true},
		{"list[int]", 5.0, true},
		{"list[int]", []any{"1", "x"}, true},
		{"list[int]", []any{"1"}, false},
		{"tuple[int, str]", []any{1.0, map[string]any{}}, false},
		{"dict[str, int]", map[string]any{"a": "x"}, true},
		{"dict[str, int]", []any{}, true},
		{"int | bool", "maybe", true},
		{"int | str", "maybe", false},
		{"any", "x", false},
		{"int", nil, false},
	}
	for _, tt := range tests {
		if got := failsForSure(coerce.MustParseType(tt.declared), tt.sent); got != tt.want {
			t.Errorf("failsForSure(%s, %#v) = %v, want %v", tt.declared, tt.sent, got, tt.want)
		}
		// What certainly fails, fails.
		if tt.want {
			if _, err := coerce.ToDeclared(tt.sent, tt.declared); err == nil {
				t.Errorf("ToDeclared(%#v, %s) succeeded", tt.sent, tt.declared)
			}
		}
	}
}
