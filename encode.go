package coerce

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// appendJSON appends the compact JSON text of v to dst, as encoding/json
// would write it with HTML escaping off: map keys sorted, no trailing
// newline. NaN and ±Inf are an *Error with ErrKind; nesting deeper than
// maxDepth (which is how cycles end) is an *Error with ErrLimit. Path,
// Declared and Value are left empty.
//
// STUB: encoding/json based; replaced by the purpose-built encoder.
func appendJSON(dst []byte, v any, maxDepth int) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, &Error{Err: ErrKind, Detail: err.Error()}
	}
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// appendFloat appends f as encoding/json writes a float64 (and as JavaScript
// prints a number): 5, 1.5, 1e+21, 1e-7. f must be finite.
func appendFloat(dst []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	fmt := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			fmt = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, fmt, -1, bits)
	if fmt == 'e' {
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
