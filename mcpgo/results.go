package mcpgocoerce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/coerce-go/coerce/toolcall"
	"github.com/mark3labs/mcp-go/mcp"
)

// A compiledOutput is an output schema compiled, with the text it came
// from, as compiled is for input schemas.
type compiledOutput struct {
	source []byte
	output *toolcall.Output
	err    error
}

// result returns r with its structuredContent coerced to the output schema
// of the tool (see Options.KeepResults): r itself when there is nothing to
// do or it conforms, else a copy.
func (c *coercer) result(ctx context.Context, name string, r *mcp.CallToolResult) *mcp.CallToolResult {
	if r.StructuredContent == nil && len(r.RawStructuredContent) == 0 {
		return r
	}
	l := c.listeners()
	out, err := c.outputFor(ctx, name)
	if err != nil {
		l.Rejected(toolcall.WithPart(ctx, toolcall.PartResult), name, fmt.Errorf("mcpgocoerce: output schema of tool %q: %w", name, err))
		return r
	}
	if out == nil {
		return r
	}
	text, err := structuredText(r)
	if err != nil {
		l.Rejected(toolcall.WithPart(ctx, toolcall.PartResult), name, err)
		return r
	}
	coerced, ok := out.CoerceResult(ctx, l, name, text)
	switch {
	case !ok:
		res := *r
		res.StructuredContent, res.RawStructuredContent = nil, nil
		if len(res.Content) == 0 {
			res.Content = []mcp.Content{mcp.NewTextContent(string(text))}
		}
		return &res
	case sameBytes(coerced, text):
		return r
	}
	res := *r
	res.StructuredContent = json.RawMessage(coerced)
	if len(r.RawStructuredContent) > 0 {
		res.RawStructuredContent = coerced
	}
	res.Content = replaceText(r.Content, text, coerced)
	return &res
}

// structuredText is the JSON text a client receives of a result's
// structuredContent, as mcp-go writes it: RawStructuredContent when set,
// else StructuredContent, a json.RawMessage as it is and any other value as
// encoding/json writes it (a time.Time as its RFC 3339 text, a nil slice
// as null).
func structuredText(r *mcp.CallToolResult) ([]byte, error) {
	if len(r.RawStructuredContent) > 0 {
		return r.RawStructuredContent, nil
	}
	if raw, ok := r.StructuredContent.(json.RawMessage); ok {
		return raw, nil
	}
	text, err := json.Marshal(r.StructuredContent)
	if err != nil {
		return nil, fmt.Errorf("mcpgocoerce: structured content: %w", err)
	}
	return text, nil
}

// replaceText returns content with each text content that holds old, the
// JSON text of a structured result, holding new instead: content itself
// when there is none, else a copy.
func replaceText(content []mcp.Content, old, new []byte) []mcp.Content {
	var out []mcp.Content
	for i, c := range content {
		var t mcp.TextContent
		switch c := c.(type) {
		case mcp.TextContent:
			t = c
		case *mcp.TextContent:
			if c == nil {
				continue
			}
			t = *c
		default:
			continue
		}
		if t.Text != string(old) {
			continue
		}
		if out == nil {
			out = slices.Clone(content)
		}
		t.Text = string(new)
		out[i] = t
	}
	if out == nil {
		return content
	}
	return out
}

// outputFor returns the compiled output schema of the named tool, or nil
// if the tool is unknown or declares none.
func (c *coercer) outputFor(ctx context.Context, name string) (*toolcall.Output, error) {
	tool, ok := c.lookup(ctx, name)
	if !ok {
		return nil, nil
	}
	source, ok := outputSchemaJSON(tool)
	if !ok {
		return nil, nil
	}
	var known []*compiledOutput
	if v, ok := c.outputs.Load(name); ok {
		known = v.([]*compiledOutput)
		for _, e := range known {
			if bytes.Equal(e.source, source) {
				return e.output, e.err
			}
		}
	}
	// As for input schemas (schemaFor), concurrent misses may compile twice.
	out, err := toolcall.CompileOutput(c.opts.Coerce, source)
	e := &compiledOutput{source: bytes.Clone(source), output: out, err: err}
	c.outputs.Store(name, append([]*compiledOutput{e}, known[:min(len(known), schemasPerTool-1)]...))
	return out, err
}

// outputSchemaJSON returns the schema mcp-go's WithOutputSchemaValidation
// checks a result against, chosen as it chooses it: RawOutputSchema if
// set, else the structured OutputSchema unless it is empty.
func outputSchemaJSON(tool mcp.Tool) ([]byte, bool) {
	if len(tool.RawOutputSchema) > 0 {
		return tool.RawOutputSchema, true
	}
	out := tool.OutputSchema
	if out.Type == "" && len(out.Properties) == 0 && len(out.Required) == 0 {
		return nil, false
	}
	b, err := json.Marshal(out)
	return b, err == nil
}
