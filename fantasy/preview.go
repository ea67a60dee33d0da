package fantasycoerce

import (
	"context"
	"encoding/json"
	"maps"
	"sync"

	"charm.land/fantasy"
	"github.com/coerce-go/coerce"
)

// Previews: the wrapped model's Stream shows Options.OnPreview the input
// of each tool call as its deltas arrive (StreamPartTypeToolInputDelta),
// through a coerce.Stream of the input schema the model was offered.

// previews are the calls of one streamed response being previewed, by ID.
type previews map[string]*previewed

type previewed struct {
	tool string
	st   *coerce.Stream
}

// anyObject previews the input of a tool the call did not offer, or whose
// schema does not compile: an object of anything.
var anyObject, _ = coerce.ParseSchema([]byte(`{"type": "object"}`))

// schemas caches, per tool name, the input schema last offered under it,
// compiled for previews: the text it was compiled from, and the result.
type schemas struct {
	mu sync.Mutex
	by map[string]compiledSchema
}

type compiledSchema struct {
	text   string
	schema *coerce.Schema
}

// previewSchema returns the compiled input schema of the named tool as
// call offers it (fantasy.FunctionTool.InputSchema, with the Go-map
// schemas fantasy generates read as maps, as Wrap reads them).
func (m *languageModel) previewSchema(call *fantasy.Call, name string) *coerce.Schema {
	var offered map[string]any
	for _, t := range call.Tools {
		if ft, ok := t.(fantasy.FunctionTool); ok && ft.Name == name {
			offered = ft.InputSchema
			break
		}
	}
	if offered == nil {
		return anyObject
	}
	if props, ok := offered["properties"].(map[string]any); ok {
		if p, changed := rewriteProperties(props); changed {
			offered = maps.Clone(offered)
			offered["properties"] = p
		}
	}
	text, err := json.Marshal(offered)
	if err != nil {
		return anyObject
	}
	m.schemas.mu.Lock()
	defer m.schemas.mu.Unlock()
	if c, ok := m.schemas.by[name]; ok && c.text == string(text) {
		return c.schema
	}
	o := m.opts.Coerce
	o.OnChange = nil
	s, err := o.ParseSchema(text)
	if err != nil {
		s = anyObject
	}
	if m.schemas.by == nil {
		m.schemas.by = map[string]compiledSchema{}
	}
	m.schemas.by[name] = compiledSchema{text: string(text), schema: s}
	return s
}

// preview reads one part of a streamed response for OnPreview: a call's
// input starting, growing or ending.
func (m *languageModel) preview(ctx context.Context, call *fantasy.Call, open previews, part *fantasy.StreamPart) {
	switch part.Type {
	case fantasy.StreamPartTypeToolInputStart:
		if part.ProviderExecuted {
			return // run by the provider: not a call of the agent's tools
		}
		open[part.ID] = &previewed{tool: part.ToolCallName, st: m.previewSchema(call, part.ToolCallName).Stream()}
	case fantasy.StreamPartTypeToolInputDelta:
		p := open[part.ID]
		// fantasy's providers carry the delta in Delta, except its
		// Anthropic provider (v0.41.2), which puts it in ToolCallInput.
		delta := part.Delta
		if delta == "" {
			delta = part.ToolCallInput
		}
		if p == nil || delta == "" {
			return
		}
		p.st.Write([]byte(delta))
		m.opts.OnPreview(ctx, p.tool, part.ID, p.st.Preview())
	case fantasy.StreamPartTypeToolInputEnd, fantasy.StreamPartTypeToolCall:
		delete(open, part.ID)
	}
}
