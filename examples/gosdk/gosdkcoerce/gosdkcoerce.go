// Package gosdkcoerce installs coerce on a server built with the official MCP
// Go SDK (github.com/modelcontextprotocol/go-sdk), so that the loosely typed
// arguments LLM hosts send ("[\"a\"]" for an array, "5" for an integer, an
// object for a string) reach the tool as the types its input schema declares.
//
// The SDK validates arguments inside the handler that [mcp.AddTool] generates,
// after every receiving middleware has run, and it offers no public way to
// get a tool's schema by name. So coercion is a receiving middleware that
// rewrites the raw arguments of "tools/call" requests, and a [Registry] keeps
// the compiled schema of each tool, filled by [AddTool] and
// [Registry.AddTool], which register a tool on the server and in the
// registry at once:
//
//	var reg gosdkcoerce.Registry
//	server.AddReceivingMiddleware(reg.Middleware())
//	gosdkcoerce.AddTool(&reg, server, &mcp.Tool{Name: "search"}, search)
package gosdkcoerce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/coerce-go/coerce"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Registry holds the compiled input schema of each tool, by name. Its zero
// value is ready to use. Set its fields before the first use; the methods
// are then safe for concurrent use, and one Registry may serve several
// servers (such as one per HTTP session) that expose the same tools.
type Registry struct {
	// Options compile each tool's input schema; the zero value gives coerce's
	// defaults.
	Options coerce.Options

	// OnError, if set, is called when some arguments of a tool call could not
	// be coerced. The call goes on regardless: the arguments that converted
	// are converted, the failing ones stay as the client sent them, and the
	// SDK's validator rejects the call with its usual message, so the client
	// sees the same error it would see without coercion. err joins one
	// *coerce.Error per failing argument (see coerce.Error.Path).
	OnError func(ctx context.Context, req *mcp.CallToolRequest, err error)

	mu      sync.RWMutex
	schemas map[string]*coerce.Schema
}

// AddTool is [mcp.AddTool] with coercion: it registers the tool on the server
// and its input schema in r. As mcp.AddTool does, it infers the input schema
// from In when t.InputSchema is nil, and it panics if the schema is invalid.
//
// The inferred schema is set on a copy of t before the SDK sees it, so that
// the SDK validates against the very schema r coerces to (the SDK keeps its
// own inferred copy private).
func AddTool[In, Out any](r *Registry, s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	tt := *t
	if tt.InputSchema == nil {
		schema, err := inferInputSchema[In]()
		if err != nil {
			panic(fmt.Sprintf("gosdkcoerce.AddTool: tool %q: input schema: %v", t.Name, err))
		}
		tt.InputSchema = schema
	}
	r.record(&tt)
	mcp.AddTool(s, &tt, h)
}

// inferInputSchema mirrors the SDK's inference in mcp.AddTool (go-sdk
// v1.8.0, setSchema): "any" takes any object, a pointer is inferred from
// its element type, the rest through jsonschema-go with default options.
func inferInputSchema[In any]() (*jsonschema.Schema, error) {
	rt := reflect.TypeFor[In]()
	if rt == reflect.TypeFor[any]() {
		return &jsonschema.Schema{Type: "object"}, nil
	}
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	return jsonschema.ForType(rt, &jsonschema.ForOptions{})
}

// AddTool is [mcp.Server.AddTool] with coercion, for a tool whose handler
// takes raw arguments: it records t.InputSchema (a *jsonschema.Schema, a
// json.RawMessage, a map, anything that marshals to a JSON Schema) in r and
// registers the tool on s. It panics if the schema cannot be compiled. The
// SDK does not validate the arguments of such tools, but their handlers
// still receive coerced ones.
func (r *Registry) AddTool(s *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) {
	r.record(t)
	s.AddTool(t, h)
}

// RemoveTools removes the named tools from s and from r. A name left in the
// registry after its tool is gone would coerce the arguments of an unrelated
// tool registered later under that name without r.
func (r *Registry) RemoveTools(s *mcp.Server, names ...string) {
	s.RemoveTools(names...)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, name := range names {
		delete(r.schemas, name)
	}
}

// record compiles the input schema of t and files it under t's name. It runs
// before the tool reaches the server, so that no call can arrive between the
// two and miss coercion.
func (r *Registry) record(t *mcp.Tool) {
	schema, err := r.compile(t.InputSchema)
	if err != nil {
		panic(fmt.Sprintf("gosdkcoerce: tool %q: %v", t.Name, err))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.schemas == nil {
		r.schemas = make(map[string]*coerce.Schema)
	}
	r.schemas[t.Name] = schema
}

func (r *Registry) compile(inputSchema any) (*coerce.Schema, error) {
	if inputSchema == nil {
		return nil, fmt.Errorf("missing input schema")
	}
	text, ok := inputSchema.(json.RawMessage)
	if !ok {
		var err error
		if text, err = json.Marshal(inputSchema); err != nil {
			return nil, fmt.Errorf("marshal input schema: %w", err)
		}
	}
	return r.Options.ParseSchema(text)
}

// Schema returns the compiled input schema of the named tool.
func (r *Registry) Schema(tool string) (*coerce.Schema, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.schemas[tool]
	return s, ok
}

// Middleware returns the receiving middleware that coerces the arguments of
// each "tools/call" request for a tool in r; other requests and other tools
// pass untouched. Install it with [mcp.Server.AddReceivingMiddleware]. The
// SDK runs the middleware added last first, so middleware added before this
// one sees coerced arguments, and middleware added after it sees the
// arguments as the client sent them.
func (r *Registry) Middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" {
				req = r.coerce(ctx, call)
			}
			return next(ctx, method, req)
		}
	}
}

// coerce returns call with its arguments coerced. It changes a copy, never
// call itself, so that outer middleware still sees what the client sent.
func (r *Registry) coerce(ctx context.Context, call *mcp.CallToolRequest) *mcp.CallToolRequest {
	if call.Params == nil || noArguments(call.Params.Arguments) {
		return call
	}
	schema, ok := r.Schema(call.Params.Name)
	if !ok {
		return call
	}
	args, err := schema.CoerceJSON(call.Params.Arguments)
	if err != nil && r.OnError != nil {
		r.OnError(ctx, call, err)
	}
	params := *call.Params
	params.Arguments = args
	out := *call
	out.Params = &params
	return &out
}

// noArguments reports whether a call has no arguments: absent, or JSON null,
// which the SDK reads as {} too. Coercion has nothing to do there, and an
// error about null would be noise.
func noArguments(args json.RawMessage) bool {
	return len(args) == 0 || string(bytes.Trim(args, " \t\r\n")) == "null"
}
