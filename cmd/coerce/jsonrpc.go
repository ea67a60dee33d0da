package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// The proxy reads just enough of each JSON-RPC message to route it, and
// forwards the bytes it read: a message it does not change is passed on as
// it came, whatever fields, spacing or key order it has.

// envelope is what the proxy reads of any message.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (e *envelope) isRequest() bool      { return e.Method != "" && len(e.ID) > 0 && !isNull(e.ID) }
func (e *envelope) isNotification() bool { return e.Method != "" && (len(e.ID) == 0 || isNull(e.ID)) }
func (e *envelope) isResponse() bool     { return e.Method == "" && len(e.ID) > 0 }

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

// idKey is the key a request's id is matched by. A peer echoes the id it was
// sent; the compact form absorbs spacing, which is all JSON lets differ in a
// string or an integer written back by a conforming peer.
func idKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

// splitBatch returns the messages of a JSON-RPC batch (a JSON array), or
// nil and false for a single message.
func splitBatch(msg []byte) ([]json.RawMessage, bool) {
	trimmed := bytes.TrimLeft(msg, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return nil, false
	}
	var parts []json.RawMessage
	if json.Unmarshal(msg, &parts) != nil {
		return nil, false
	}
	return parts, true
}

// joinBatch writes messages as a batch. The messages keep their bytes; only
// the commas between them are the proxy's.
func joinBatch(parts [][]byte) []byte {
	n := 2
	for _, p := range parts {
		n += len(p) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, p := range parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	return append(out, ']')
}

// errNoArguments: a tools/call without arguments, which has nothing to
// coerce.
var errNoArguments = errors.New("no arguments")

// argumentsSpan returns where params.arguments lies in msg, a JSON-RPC
// request, as offsets of its value's first byte and the byte after it, so
// that the value can be replaced and every other byte kept. When a key
// appears twice it finds the last, the one encoding/json, and so the SDKs
// built on it, would read.
func argumentsSpan(msg []byte) (start, end int, err error) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	start, end = -1, -1
	err = walkObject(dec, func(key string) error {
		if key != "params" {
			return skipValue(dec)
		}
		return walkObject(dec, func(key string) error {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			if key == "arguments" {
				end = int(dec.InputOffset())
				start = end - len(raw)
			}
			return nil
		})
	})
	if err != nil {
		return 0, 0, err
	}
	if start < 0 {
		return 0, 0, errNoArguments
	}
	return start, end, nil
}

// walkObject reads an object from dec, calling member for each key with
// dec positioned before its value, which member must consume.
func walkObject(dec *json.Decoder, member func(key string) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errNotObject
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if err := member(key); err != nil {
			return err
		}
	}
	_, err = dec.Token() // '}'
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

var errNotObject = errors.New("not a JSON object")

func skipValue(dec *json.Decoder) error {
	var raw json.RawMessage
	return dec.Decode(&raw)
}

// splice returns msg with msg[start:end] replaced by repl.
func splice(msg []byte, start, end int, repl []byte) []byte {
	out := make([]byte, 0, len(msg)-(end-start)+len(repl))
	out = append(out, msg[:start]...)
	out = append(out, repl...)
	return append(out, msg[end:]...)
}

// toolErrorResponse is the answer to a tools/call that cannot be made to
// fit: a CallToolResult with isError set, as SEP-1303 asks for input errors,
// so that the model reads the feedback and corrects its call.
func toolErrorResponse(id json.RawMessage, text string) []byte {
	type content struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type result struct {
		Content []content `json:"content"`
		IsError bool      `json:"isError"`
	}
	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  result          `json:"result"`
	}{"2.0", id, result{[]content{{"text", text}}, true}}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(msg) // cannot fail: the id is JSON the peer sent, the rest strings
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
