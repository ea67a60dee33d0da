package gosdkcoerce

import (
	"context"
	"fmt"
	"reflect"

	"github.com/coerce-go/coerce/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ElicitationHandler is Options{}.ElicitationHandler: it coerces with
// coerce's defaults and reports nothing.
func ElicitationHandler(next func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return Options{}.ElicitationHandler(next)
}

// ElicitationHandler returns a handler for [mcp.ClientOptions] that calls
// next, the handler of your own that asks the user, and coerces the
// content of an accepted answer to the requestedSchema the server sent,
// before the SDK validates it against that schema and sends it:
//
//	client := mcp.NewClient(impl, &mcp.ClientOptions{
//		ElicitationHandler: gosdkcoerce.ElicitationHandler(askUser),
//	})
//
// A form's text fields give strings: "42" for an integer becomes 42, "yes"
// for a boolean true, "red" for a multiple choice ["red"], and a choice
// given by its title, where the schema titles its values (oneOf or anyOf
// of const and title, or enumNames), its value (see toolcall.Elicited).
// Content that conforms is sent as next returned it; an answer declined or
// cancelled, an error of next, and an elicitation in URL mode are returned
// as they are. next must not be nil.
//
// OnChange and Logger hear of each repair, and OnError and Logger of what
// could not be repaired (that content is sent as the user gave it: the SDK
// then refuses it), with tool "" and a context for which toolcall.PartOf is
// toolcall.PartElicited; paths are from the content's root.
func (o Options) ElicitationHandler(next func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		res, err := next(ctx, req)
		if err != nil || res == nil || res.Action != "accept" || res.Content == nil ||
			req == nil || req.Params == nil || req.Params.RequestedSchema == nil || req.Params.Mode == "url" {
			return res, err
		}
		l := toolcall.Listeners{Inner: o.Coerce.OnChange, OnChange: o.OnChange, OnError: o.OnError, Logger: o.Logger}
		ectx := toolcall.WithPart(ctx, toolcall.PartElicited)
		schema, err := schemaText(req.Params.RequestedSchema)
		if err != nil {
			l.Rejected(ectx, "", fmt.Errorf("gosdkcoerce: requested schema: %w", err))
			return res, nil
		}
		co, changes := toolcall.Collect(o.Coerce, l.Hears(ctx))
		content, err := toolcall.Elicited(co, schema, res.Content)
		if err != nil {
			l.Rejected(ectx, "", err)
		}
		if changes != nil {
			l.Repaired(ectx, "", *changes)
		}
		if reflect.ValueOf(content).UnsafePointer() == reflect.ValueOf(res.Content).UnsafePointer() {
			return res, nil // it conforms: toolcall.Elicited returned the map itself
		}
		out := *res
		out.Content = content
		return &out, nil
	}
}
