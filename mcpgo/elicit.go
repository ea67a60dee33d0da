package mcpgocoerce

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/coerce-go/coerce/toolcall"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// ElicitationHandler is Options{}.ElicitationHandler: it coerces with
// coerce's defaults and reports nothing.
func ElicitationHandler(next client.ElicitationHandler) client.ElicitationHandler {
	return Options{}.ElicitationHandler(next)
}

// ElicitationHandler returns an elicitation handler for
// [client.WithElicitationHandler] that calls next, the handler of your own
// that asks the user, and coerces the content of an accepted answer to the
// requestedSchema the server sent, before it is sent:
//
//	c := client.NewClient(transport, client.WithElicitationHandler(mcpgocoerce.ElicitationHandler(askUser)))
//
// A form's text fields give strings: "42" for an integer becomes 42, "yes"
// for a boolean true, "red" for a multiple choice ["red"], and a choice
// given by its title, where the schema titles its values (oneOf or anyOf
// of const and title, or enumNames), its value (see toolcall.Elicited).
// Content that conforms is sent as next returned it; content that is not a
// map[string]any (a struct, JSON text) is read as its JSON and, if
// repaired, sent as a map[string]any. An answer declined or cancelled, an
// error of next, and an elicitation in URL mode are returned as they are.
// next must not be nil.
//
// OnChange and Logger hear of each repair, and OnError and Logger of what
// could not be repaired (that content is sent as the user gave it), with
// tool "" and a context for which toolcall.PartOf is toolcall.PartElicited;
// paths are from the content's root.
func (o Options) ElicitationHandler(next client.ElicitationHandler) client.ElicitationHandler {
	return &elicitationHandler{opts: o, next: next}
}

type elicitationHandler struct {
	opts Options
	next client.ElicitationHandler
}

func (h *elicitationHandler) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	res, err := h.next.Elicit(ctx, req)
	if err != nil || res == nil || res.Action != mcp.ElicitationResponseActionAccept || res.Content == nil ||
		req.Params.RequestedSchema == nil || req.Params.Mode == mcp.ElicitationModeURL {
		return res, err
	}
	l := toolcall.Listeners{Inner: h.opts.Coerce.OnChange, OnChange: h.opts.OnChange, OnError: h.opts.OnError, Logger: h.opts.Logger}
	ectx := toolcall.WithPart(ctx, toolcall.PartElicited)
	schema, err := jsonText(req.Params.RequestedSchema)
	if err != nil {
		l.Rejected(ectx, "", fmt.Errorf("mcpgocoerce: requested schema: %w", err))
		return res, nil
	}
	content, ok := res.Content.(map[string]any)
	if !ok {
		text, err := jsonText(res.Content)
		if err == nil {
			err = json.Unmarshal(text, &content)
		}
		if err != nil || content == nil {
			l.Rejected(ectx, "", fmt.Errorf("mcpgocoerce: elicited content: %v", err))
			return res, nil
		}
	}
	co, changes := toolcall.Collect(h.opts.Coerce, l.Hears(ctx))
	coerced, err := toolcall.Elicited(co, schema, content)
	if err != nil {
		l.Rejected(ectx, "", err)
	}
	if changes != nil {
		l.Repaired(ectx, "", *changes)
	}
	if sameMap(coerced, content) {
		return res, nil
	}
	out := *res
	out.Content = coerced
	return &out, nil
}

// jsonText is the JSON text of v: a json.RawMessage as it is.
func jsonText(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}

// sameMap reports whether a and b are one map: toolcall.Elicited returns
// the content itself when it conforms.
func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
