package coercetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// normalize returns v as encoding/json decodes its JSON text, with numbers
// as json.Number: maps and slices of any Go type become map[string]any and
// []any, and numbers keep their exact text.
func normalize(v any) (any, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return decode(buf.Bytes())
}

// decode decodes one JSON value, numbers as json.Number.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

// floatNumbers replaces the json.Numbers in v, which decode made, by what
// package coerce makes of numbers in JSON text: float64, unless float64
// cannot hold an integer exactly, which stays json.Number. ok is false if
// a number is beyond float64's range: coercion rejects such text.
func floatNumbers(v any) (out any, ok bool) {
	ok = true
	switch x := v.(type) {
	case json.Number:
		if n, exact := numberValue(string(x)); exact {
			return n, true
		}
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case []any:
		for i := range x {
			x[i], ok = floatNumbers(x[i])
			if !ok {
				break
			}
		}
	case map[string]any:
		for k := range x {
			if x[k], ok = floatNumbers(x[k]); !ok {
				break
			}
		}
	}
	return v, ok
}

// exactNumbers reports whether coercion reads every number in v, written
// as JSON text, back as the same value: integers written as plain digits
// (json.Number when float64 cannot hold them), and numbers float64 holds
// exactly. Others, such as 0.30000000000000000001, become the nearest
// float64.
func exactNumbers(v any) bool {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if isJSONNumber(s) && !strings.ContainsAny(s, ".eE") {
			return true
		}
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && sameNumber(x, json.Number(numberString(f)))
	case []any:
		for _, e := range x {
			if !exactNumbers(e) {
				return false
			}
		}
	case map[string]any:
		for _, e := range x {
			if !exactNumbers(e) {
				return false
			}
		}
	}
	return true
}

// numberValue returns the number whose text, as package coerce writes a
// number for a string, is s: a float64 that JavaScript prints as s, or a
// json.Number for an integer beyond float64 (its text is kept). ok is false
// for any other text, such as "1.50", "1e3" or "05".
func numberValue(s string) (n any, ok bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err == nil && numberString(f) == s {
		return f, true
	}
	digits := strings.TrimPrefix(s, "-")
	if isJSONNumber(s) && !strings.ContainsAny(digits, ".eE") && digits != "0" {
		return json.Number(s), true
	}
	return nil, false
}

// numberString writes a float64 as JavaScript and encoding/json do (5,
// 1.5, 1e+21); a json.Number keeps its text.
func numberString(n any) string {
	switch x := n.(type) {
	case json.Number:
		return string(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ""
		}
		b, _ := json.Marshal(x)
		return string(b)
	}
	return ""
}

// isJSONNumber reports whether s is a JSON number, exactly: no spaces, no
// "+", no leading zeros.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// A decimal is a JSON number as sign, significant digits and a power of
// ten: its value is digits × 10^exp. Zero has no digits and no sign.
type decimal struct {
	neg    bool
	digits string // no leading or trailing zeros
	exp    int
}

// parseDecimal reads a JSON number; ok is false for other text and for
// exponents beyond int.
func parseDecimal(s string) (d decimal, ok bool) {
	if !isJSONNumber(s) {
		return d, false
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp {
		e, err := strconv.Atoi(expText)
		if err != nil {
			return d, false
		}
		d.exp = e
	}
	d.neg = strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	whole, frac, _ := strings.Cut(mant, ".")
	d.exp -= len(frac)
	all := strings.TrimLeft(whole+frac, "0")
	trimmed := strings.TrimRight(all, "0")
	d.exp += len(all) - len(trimmed)
	d.digits = trimmed
	if d.digits == "" {
		d.neg, d.exp = false, 0
	}
	return d, true
}

// isWhole reports whether s, a JSON number, is an integer.
func isWhole(s string) bool {
	d, ok := parseDecimal(s)
	return ok && d.exp >= 0
}

// sameNumber reports whether two JSON numbers have the same value,
// exactly: "5", "5.0" and "0.5e1" do; 9007199254740992 and
// 9007199254740993 do not.
func sameNumber(a, b json.Number) bool {
	da, oka := parseDecimal(string(a))
	db, okb := parseDecimal(string(b))
	if !oka || !okb {
		return a == b
	}
	return da == db
}

// isStructuredText reports whether s, with JSON whitespace trimmed, starts
// and ends as JSON object or array text does.
func isStructuredText(s string) bool {
	s = strings.Trim(s, " \t\r\n")
	return len(s) >= 2 && (s[0] == '{' && s[len(s)-1] == '}' || s[0] == '[' && s[len(s)-1] == ']')
}

// A style says how encode writes JSON text.
type style struct {
	comma, colon string // separators between elements, and after keys
	ascii        bool   // non-ASCII characters as \u escapes
}

var (
	// compactStyle is JavaScript's JSON.stringify and Go's encoding/json.
	compactStyle = style{comma: ",", colon: ":"}
	// pythonStyle is Python's json.dumps with its defaults.
	pythonStyle = style{comma: ", ", colon: ": ", ascii: true}
)

// encode writes v, a value as decode or floatNumbers returns it (or a
// string), as JSON text: map keys sorted, no HTML escaping.
func encode(v any, st style) string {
	var b strings.Builder
	st.write(&b, v)
	return b.String()
}

func (st style) write(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number, float64:
		b.WriteString(numberString(x))
	case string:
		st.writeString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(st.comma)
			}
			st.write(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b.WriteString(st.comma)
			}
			st.writeString(b, k)
			b.WriteString(st.colon)
			st.write(b, x[k])
		}
		b.WriteByte('}')
	}
}

func (st style) writeString(b *strings.Builder, s string) {
	if plain(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	text := strings.TrimSuffix(buf.String(), "\n")
	if !st.ascii {
		b.WriteString(text)
		return
	}
	for _, r := range text {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
}

// plain reports whether s is printable ASCII that JSON writes without
// escapes.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// indent indents compact JSON text by two spaces, as JSON.stringify(v,
// null, 2) and most models do.
func indent(compact string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(compact), "", "  "); err != nil {
		return compact
	}
	return buf.String()
}

// clientValue returns v, a value as normalize returns it, as a client's
// JSON decoder gives it: numbers float64 where float64 holds them exactly,
// json.Number otherwise. It changes v in place.
func clientValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err == nil && sameNumber(x, json.Number(numberString(f))) {
			return f
		}
	case []any:
		for i := range x {
			x[i] = clientValue(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = clientValue(x[k])
		}
	}
	return v
}
