package gosdkcoerce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// result returns r with its structuredContent coerced to the output schema
// of t (see Options.KeepResults): r itself when there is nothing to do or
// it conforms, else a copy.
func (c *coercer) result(ctx context.Context, l toolcall.Listeners, t *toolEntry, r *mcp.CallToolResult) *mcp.CallToolResult {
	if r.IsError || r.StructuredContent == nil {
		return r
	}
	out, err := t.outputSchema(c.opts.Coerce)
	if err != nil {
		l.Rejected(toolcall.WithPart(ctx, toolcall.PartResult), t.def.Name, err)
		return r
	}
	if out == nil {
		return r
	}
	text, err := structuredText(r.StructuredContent)
	if err != nil {
		l.Rejected(toolcall.WithPart(ctx, toolcall.PartResult), t.def.Name, err)
		return r
	}
	coerced, ok := out.CoerceResult(ctx, l, t.def.Name, text)
	switch {
	case !ok:
		res := *r
		res.StructuredContent = nil
		if len(res.Content) == 0 {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(text)}}
		}
		return &res
	case sameBytes(coerced, text):
		return r
	}
	res := *r
	res.StructuredContent = json.RawMessage(coerced)
	res.Content = replaceText(r.Content, text, coerced)
	return &res
}

// structuredText is the JSON text a client receives of a structuredContent:
// a json.RawMessage as it is, any other value as encoding/json writes it
// (a time.Time as its RFC 3339 text, a nil slice as null).
func structuredText(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	text, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("gosdkcoerce: structured content: %w", err)
	}
	return text, nil
}

// replaceText returns content with each text content that holds old, the
// JSON text of a structured result (the SDK's typed handlers write it
// there, as the specification suggests), holding new instead: content
// itself when there is none, else a copy.
func replaceText(content []mcp.Content, old, new []byte) []mcp.Content {
	var out []mcp.Content
	for i, c := range content {
		tc, ok := c.(*mcp.TextContent)
		if !ok || tc == nil || tc.Text != string(old) {
			continue
		}
		if out == nil {
			out = slices.Clone(content)
		}
		t := *tc
		t.Text = string(new)
		out[i] = &t
	}
	if out == nil {
		return content
	}
	return out
}

// compileOutput compiles the output schema of a tool, or returns nil if it
// has none.
func compileOutput(o coerce.Options, tool string, schema any) (*toolcall.Output, error) {
	if schema == nil {
		return nil, nil
	}
	text, err := schemaText(schema)
	if err != nil {
		return nil, fmt.Errorf("gosdkcoerce: output schema of %q: %w", tool, err)
	}
	if s := bytes.TrimSpace(text); len(s) == 0 || string(s) == "null" {
		return nil, nil
	}
	out, err := toolcall.CompileOutput(o, text)
	if err != nil {
		return nil, fmt.Errorf("gosdkcoerce: output schema of %q: %w", tool, err)
	}
	return out, nil
}

// installed knows the coercer Install put on each server, for AddTool. Keys
// are weak, and an entry is deleted once its server is collected.
var installed servers

type servers struct{ m sync.Map } // weak.Pointer[mcp.Server] → *coercer

func (s *servers) register(server *mcp.Server, c *coercer) {
	key := weak.Make(server)
	if _, loaded := s.m.Swap(key, c); !loaded {
		runtime.AddCleanup(server, func(key weak.Pointer[mcp.Server]) { s.m.Delete(key) }, key)
	}
}

// of returns the coercer installed on server, or one with the zero Options.
func (s *servers) of(server *mcp.Server) *coercer {
	if v, ok := s.m.Load(weak.Make(server)); ok {
		return v.(*coercer)
	}
	return &coercer{}
}

// AddTool is [mcp.AddTool], with the output of h coerced to the tool's
// output schema before the SDK validates it and writes it in the result.
//
// mcp.AddTool marshals the Out value of a typed handler, validates it
// against the output schema, and answers a call whose output does not
// conform with a JSON-RPC error: the receiving middleware of Install sees
// no result to repair. AddTool marshals the Out value itself, as the SDK
// would (a nil pointer as its type's zero value), coerces that JSON text
// with toolcall.Output, and hands the SDK the repaired text, which it then
// validates, writes as structuredContent and, when the handler set no
// content, as the text content: the two agree. The output schema is
// t.OutputSchema, or, if nil, the one the SDK infers from Out. Output that
// cannot be fixed is sent without structuredContent, its JSON text as the
// text content (as the SDK would have written it), and reported as a
// rejection of the result.
//
// It coerces with the Options of Install on s, called before or after
// AddTool, or with the zero Options if there is none; KeepResults makes it
// mcp.AddTool. Like mcp.AddTool it panics if the output schema cannot be
// inferred from Out.
func AddTool[In, Out any](s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	tt := *t
	var zero any // what the SDK writes for a nil *T: T's zero value
	if rt := reflect.TypeFor[Out](); tt.OutputSchema == nil && rt != reflect.TypeFor[any]() {
		if rt.Kind() == reflect.Pointer {
			rt = rt.Elem()
			zero = reflect.Zero(rt).Interface()
		}
		schema, err := jsonschema.ForType(rt, &jsonschema.ForOptions{})
		if err != nil {
			panic(fmt.Sprintf("AddTool: tool %q: output schema: %v", t.Name, err))
		}
		tt.OutputSchema = schema
	}
	var (
		once     sync.Once
		compiled *toolcall.Output
		err      error
	)
	mcp.AddTool(s, &tt, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, out, herr := h(ctx, req, in)
		if herr != nil || (res != nil && res.InputRequests != nil) {
			return res, nil, herr
		}
		var v any = out
		if zero != nil {
			var z Out
			if any(out) == any(z) {
				v = zero
			}
		}
		c := installed.of(s)
		if v == nil || tt.OutputSchema == nil || c.opts.KeepResults {
			return res, v, nil
		}
		once.Do(func() { compiled, err = compileOutput(c.opts.Coerce, tt.Name, tt.OutputSchema) })
		l := c.listeners(req)
		if err != nil || compiled == nil {
			if err != nil {
				l.Rejected(toolcall.WithPart(ctx, toolcall.PartResult), tt.Name, err)
			}
			return res, v, nil
		}
		text, merr := json.Marshal(v)
		if merr != nil {
			return nil, nil, fmt.Errorf("marshaling output: %w", merr) // as the SDK answers it
		}
		coerced, ok := compiled.CoerceResult(ctx, l, tt.Name, text)
		if ok {
			return res, json.RawMessage(coerced), nil
		}
		// The text content the SDK would have written, and no
		// structuredContent.
		var r mcp.CallToolResult
		if res != nil {
			r = *res
		}
		if r.Content == nil {
			r.Content = []mcp.Content{&mcp.TextContent{Text: string(text)}}
		} else if !isObjectText(text) {
			r.Content = append(slices.Clip(r.Content), &mcp.TextContent{Text: string(text)})
		}
		return &r, nil, nil
	})
}

// isObjectText reports whether text is a JSON object.
func isObjectText(text []byte) bool {
	t := bytes.TrimLeft(text, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}
