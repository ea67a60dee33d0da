package main

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// SEP-2243 (MCP 2026-07-28): a tool parameter annotated "x-mcp-header": "Name"
// is mirrored by the client into an Mcp-Param-Name header of the HTTP
// request, and the server refuses a call whose header differs from the body
// (-32020 HeaderMismatch). A proxy that rewrites arguments must rewrite the
// headers to match, or every call it repairs would be refused.

const paramHeaderPrefix = "Mcp-Param-"

// A headerParam is one annotated parameter: its property path in the
// arguments, and the header name after the prefix.
type headerParam struct {
	path   []string
	header string
}

type headerSchemaProp struct {
	XMCPHeader json.RawMessage             `json:"x-mcp-header"`
	Properties map[string]headerSchemaProp `json:"properties"`
}

// headerParams returns the annotated parameters of an input schema, nested
// properties included.
func headerParams(schema json.RawMessage) []headerParam {
	var root headerSchemaProp
	if json.Unmarshal(schema, &root) != nil {
		return nil
	}
	var out []headerParam
	var walk func(props map[string]headerSchemaProp, prefix []string)
	walk = func(props map[string]headerSchemaProp, prefix []string) {
		for name, p := range props {
			path := append(append([]string(nil), prefix...), name)
			var header string
			if json.Unmarshal(p.XMCPHeader, &header) == nil && header != "" {
				out = append(out, headerParam{path, header})
			}
			walk(p.Properties, path)
		}
	}
	walk(root.Properties, nil)
	return out
}

// setParamHeaders sets on h the Mcp-Param-* headers of the annotated
// parameters as args holds them, and removes those of parameters args lacks
// or holds as a value no header can carry, as a client computing them from
// these arguments would have.
func setParamHeaders(h http.Header, params []headerParam, args json.RawMessage) {
	for _, p := range params {
		name := paramHeaderPrefix + p.header
		v, ok := headerValue(args, p.path)
		if !ok {
			h.Del(name)
			continue
		}
		h.Set(name, v)
	}
}

// headerValue returns the header text of the value at path in args: a
// string as it is, a boolean as true or false, an integer within ±(2^53-1)
// in decimal, Base64-wrapped (=?base64?...?=) where the text is not plain
// printable ASCII or has spaces at either end.
func headerValue(args json.RawMessage, path []string) (string, bool) {
	cur := args
	for _, part := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return "", false
		}
		var ok bool
		if cur, ok = obj[part]; !ok {
			return "", false
		}
	}
	var v any
	if json.Unmarshal(cur, &v) != nil {
		return "", false
	}
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case bool:
		s = strconv.FormatBool(v)
	case float64:
		const maxSafe = 1<<53 - 1
		if v != math.Trunc(v) || v > maxSafe || v < -maxSafe {
			return "", false
		}
		s = strconv.FormatInt(int64(v), 10)
	default:
		return "", false
	}
	if needsBase64(s) {
		s = "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
	}
	return s, true
}

func needsBase64(s string) bool {
	if s == "" {
		return false
	}
	if strings.ContainsAny(s[:1], " \t") || strings.ContainsAny(s[len(s)-1:], " \t") {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return true
		}
	}
	return false
}
