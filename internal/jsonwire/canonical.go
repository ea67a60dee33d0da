package jsonwire

// AppendTextAsString appends to dst, as a JSON string, the JSON text that
// Decode then String would make of the valid JSON value src, reading src
// once, when it can tell that text without decoding: src is then the same
// text but for whitespace. That is so when every object's keys are in
// increasing order (as the encoder sorts them, and with none given twice),
// every string and key is printable ASCII with no escape (as the encoder
// writes them), and every number is an integer of at most 15 digits (which
// float64 holds exactly and the encoder writes as it is). Otherwise, or
// deeper than maxDepth, it returns dst unchanged and false, and the caller
// decodes and encodes.
func AppendTextAsString(dst, src []byte, maxDepth int) ([]byte, bool) {
	start := len(dst)
	dst = append(dst, '"')
	// The open containers, innermost last: for an object, its last key so
	// far, as offsets into src (-1 before the first).
	type open struct {
		keyStart, keyEnd int32
		obj              bool
	}
	var backing [32]open
	stack := backing[:0]
	expectKey := false
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		case '{', '[':
			if len(stack) >= maxDepth || len(src) > 1<<31-1 {
				return dst[:start], false
			}
			stack = append(stack, open{-1, -1, c == '{'})
			dst = append(dst, c)
			expectKey = c == '{'
			i++
			continue
		case '}', ']':
			if len(stack) == 0 {
				return dst[:start], false // not valid text: not to be given
			}
			stack = stack[:len(stack)-1]
			dst = append(dst, c)
			i++
		case ',':
			if len(stack) == 0 {
				return dst[:start], false
			}
			dst = append(dst, c)
			expectKey = stack[len(stack)-1].obj
			i++
			continue
		case ':':
			dst = append(dst, c)
			i++
			continue
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if b := src[j]; b < 0x20 || b >= 0x7f || b == '\\' {
					return dst[:start], false
				}
				j++
			}
			if j >= len(src) {
				return dst[:start], false
			}
			if expectKey {
				k := &stack[len(stack)-1]
				if k.keyStart >= 0 && string(src[k.keyStart:k.keyEnd]) >= string(src[i+1:j]) {
					return dst[:start], false // not in the encoder's order, or given twice
				}
				k.keyStart, k.keyEnd = int32(i+1), int32(j)
				expectKey = false
			}
			dst = append(dst, '\\', '"')
			dst = append(dst, src[i+1:j]...)
			dst = append(dst, '\\', '"')
			i = j + 1
			continue
		case 't', 'f', 'n':
			n := 4
			if c == 'f' {
				n = 5
			}
			if i+n > len(src) {
				return dst[:start], false
			}
			dst = append(dst, src[i:i+n]...)
			i += n
		default:
			j := i
			if src[j] == '-' {
				j++
			}
			d := j
			for j < len(src) && '0' <= src[j] && src[j] <= '9' {
				j++
			}
			if n := j - d; n == 0 || n > 15 || n > 1 && src[d] == '0' || j == d+1 && src[d] == '0' && d > i ||
				j < len(src) && (src[j] == '.' || src[j] == 'e' || src[j] == 'E') {
				return dst[:start], false // -0, fractions, exponents and long numbers: the encoder decides
			}
			dst = append(dst, src[i:j]...)
			i = j
		}
		expectKey = false
	}
	return append(dst, '"'), true
}

// IsFloatText reports whether number text num, valid JSON, is what
// AppendFloat writes for the float64 it stands for, so that it can be
// written as it is: no exponent, no trailing zero in a fraction, at most
// 15 significant digits (which float64 holds exactly), and not below
// 1e-6, where AppendFloat turns to exponents. "-0" is written as it is
// too.
func IsFloatText(num []byte) bool {
	i := 0
	if i < len(num) && num[i] == '-' {
		i++
	}
	intStart := i
	for i < len(num) && '0' <= num[i] && num[i] <= '9' {
		i++
	}
	intDigits := i - intStart
	if intDigits == 0 || intDigits > 1 && num[intStart] == '0' {
		return false
	}
	sig := intDigits
	if num[intStart] == '0' {
		sig = 0
	}
	if i == len(num) {
		return sig <= 15
	}
	if num[i] != '.' || num[len(num)-1] == '0' {
		return false // an exponent, or a fraction ending in 0
	}
	i++
	lead := 0
	for j := i; j < len(num) && num[j] == '0' && sig == 0; j++ {
		lead++
	}
	for j := i; j < len(num); j++ {
		if num[j] < '0' || num[j] > '9' {
			return false
		}
	}
	fracDigits := len(num) - i
	if sig == 0 {
		if lead > 5 {
			return false // below 1e-6
		}
		return fracDigits-lead <= 15
	}
	return sig+fracDigits <= 15
}
