package genkitcoerce

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/coerce-go/coerce"
	"github.com/firebase/genkit/go/ai"
)

// Options configures the middleware. The zero value repairs with coerce's
// defaults and reports nothing; its methods mirror the package functions.
type Options struct {
	// Coerce is the coercion applied to each tool input: set
	// coerce.Options.StructuredOnly, for instance, to leave "5" for an
	// integer to Genkit's validation.
	Coerce coerce.Options

	// OnError, if set, is called once for each tool request whose input
	// could not be repaired entirely, with the context of the generate
	// call, the tool's name and the error of package coerce: one
	// *coerce.Error for each parameter that failed, joined with
	// errors.Join, or the error of coerce.ParseSchema for an input schema
	// it cannot compile. The request goes on with the parameters that were
	// converted, and Genkit's validation reports the others as it would
	// have without the middleware.
	OnError func(ctx context.Context, tool string, err error)

	// OnChange, if set, is called for each conversion made in a tool
	// input, with the context of the generate call and the tool's name: a
	// server can count how its model breaks tool calls. Nil costs nothing.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// Logger, if set, logs each conversion at debug level with the tool's
	// name, as coerce.LogChanges does.
	Logger *slog.Logger
}

// Middleware returns a model middleware that repairs the input of every tool
// request in the model's responses, with the default Options. See
// Options.Middleware.
func Middleware() ai.ModelMiddleware { return Options{}.Middleware() }

// Middleware returns a model middleware that repairs the input of every tool
// request in the model's responses before Genkit validates it and runs the
// tool. Install it on a generate call, or on a prompt, with ai.WithMiddleware:
//
//	resp, err := genkit.Generate(ctx, g, ai.WithPrompt(prompt), ai.WithTools(search),
//		ai.WithMiddleware(genkitcoerce.Middleware()))
//
// Each input is converted to the input schema of its tool, as the request
// offered it to the model (ai.ModelRequest.Tools), parameter by parameter:
// a parameter that already conforms stays as it is, and a response in which
// nothing needs converting is returned as the model made it. Otherwise the
// response is copied, never modified. Requests for tools the request did
// not offer, and streamed chunks, are left as they are.
//
// Each input schema is compiled once, the first time the model calls the
// tool, and kept for the process; the middleware is safe for concurrent use
// by any number of generate calls.
func (o Options) Middleware() ai.ModelMiddleware {
	r := &repairer{o: o}
	return func(next ai.ModelFunc) ai.ModelFunc {
		return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			resp, err := next(ctx, req, cb)
			if err != nil || req == nil || resp == nil || resp.Message == nil {
				return resp, err
			}
			return r.response(ctx, req.Tools, resp), nil
		}
	}
}

// repairer is the state of one middleware: the schema of each tool, by
// name, as compiled with the middleware's options.
type repairer struct {
	o     Options
	tools sync.Map // tool name → *toolSchema
}

// toolSchema is a tool's input schema compiled with the middleware's
// options, or the error that compiling it gave.
type toolSchema struct {
	def    map[string]any // the ai.ToolDefinition.InputSchema it was compiled from
	schema *coerce.Schema
	params bool // whether the schema declares parameters: an object, or a union of objects
	err    error
}

// response returns resp with the input of each tool request repaired: resp
// itself when none changes, otherwise a copy that shares every part it did
// not change.
func (r *repairer) response(ctx context.Context, tools []*ai.ToolDefinition, resp *ai.ModelResponse) *ai.ModelResponse {
	var content []*ai.Part // a copy of resp.Message.Content, made on the first repair
	for i, p := range resp.Message.Content {
		if !p.IsToolRequest() || p.ToolRequest == nil || p.ToolRequest.Partial || p.ToolRequest.Input == nil {
			continue
		}
		input, changed := r.input(ctx, tools, p.ToolRequest)
		if !changed {
			continue
		}
		if content == nil {
			content = slices.Clone(resp.Message.Content)
		}
		req := *p.ToolRequest
		req.Input = input
		part := *p
		part.ToolRequest = &req
		content[i] = &part
	}
	if content == nil {
		return resp
	}
	msg := *resp.Message
	msg.Content = content
	out := *resp
	out.Message = &msg
	return &out
}

// input repairs the input of one tool request and reports whether it
// changed.
func (r *repairer) input(ctx context.Context, tools []*ai.ToolDefinition, req *ai.ToolRequest) (any, bool) {
	i := slices.IndexFunc(tools, func(t *ai.ToolDefinition) bool { return t != nil && t.Name == req.Name })
	if i < 0 || tools[i].InputSchema == nil {
		return nil, false
	}
	ts := r.schema(req.Name, tools[i].InputSchema)
	if ts.err != nil {
		r.fail(ctx, req.Name, ts.err)
		return nil, false
	}
	s, o := ts.schema, r.o.Coerce
	if r.o.OnChange != nil || r.o.Logger != nil {
		o.OnChange = coerce.ReportChanges(ctx, req.Name, o.OnChange, r.o.OnChange, r.o.Logger)
		s = s.WithOptions(o)
	}
	out, changed, err := repair(s, o, ts.params, req.Input)
	if err != nil {
		r.fail(ctx, req.Name, err)
	}
	return out, changed
}

// repair converts in to the schema: an argument object parameter by
// parameter, so that the ones that convert are kept when others fail; the
// whole input sent as JSON text, as some models do, likewise once parsed;
// and any other input, such as a tool's single scalar, as a whole.
func repair(s *coerce.Schema, o coerce.Options, params bool, in any) (out any, changed bool, err error) {
	switch v := in.(type) {
	case map[string]any:
		if params {
			m, err := s.Coerce(v)
			return m, !sameMap(m, v), err
		}
	case string:
		if params {
			if parsed, ok := o.Structured(v); ok {
				if m, ok := parsed.(map[string]any); ok {
					m, err := s.Coerce(m)
					return m, true, err
				}
			}
		}
	}
	out, err = o.ToType(in, s.Type())
	return out, err == nil && !identical(out, in), err
}

// schema returns the compiled input schema of a tool. The definition a
// registered tool gives is the same map on every call, so comparing it by
// identity finds the schema without encoding it; a tool made anew for each
// call (ai.NewTool) finds it, by its JSON text, in the process-wide cache.
func (r *repairer) schema(name string, def map[string]any) *toolSchema {
	if v, ok := r.tools.Load(name); ok {
		if ts := v.(*toolSchema); sameMap(ts.def, def) {
			return ts
		}
	}
	c := compile(def)
	ts := &toolSchema{def: def, params: c.params, err: c.err}
	if c.schema != nil {
		ts.schema = c.schema.WithOptions(r.o.Coerce)
	}
	r.tools.Store(name, ts)
	return ts
}

func (r *repairer) fail(ctx context.Context, tool string, err error) {
	if r.o.OnError != nil {
		r.o.OnError(ctx, tool, err)
	}
}

// compiled is an input schema compiled with the default options, shared
// by every middleware in the process.
type compiled struct {
	schema *coerce.Schema
	params bool
	err    error
}

// maxCompiled bounds the process-wide cache: tools made for each call with
// a schema of their own (an enum of the user's files, say) must not make it
// grow without end. When it is full, it starts over.
const maxCompiled = 1024

var (
	compiledMu sync.Mutex
	compiledBy = map[string]*compiled{} // by the schema's JSON text
	compiles   atomic.Int64             // schemas compiled, for tests
)

func compile(def map[string]any) *compiled {
	text, err := json.Marshal(def)
	if err != nil {
		return &compiled{err: err}
	}
	key := string(text)
	compiledMu.Lock()
	c := compiledBy[key]
	compiledMu.Unlock()
	if c != nil {
		return c
	}
	compiles.Add(1)
	s, err := coerce.ParseSchema(text)
	c = &compiled{schema: s, err: err}
	if err == nil {
		c.params = declaresParams(s.Type())
	}
	compiledMu.Lock()
	if len(compiledBy) >= maxCompiled {
		clear(compiledBy)
	}
	compiledBy[key] = c
	compiledMu.Unlock()
	return c
}

// declaresParams reports whether t gives parameters their types: an object
// type, or a union with an object member (a nullable object).
func declaresParams(t *coerce.Type) bool {
	if t.Kind() == coerce.Object {
		return true
	}
	return slices.ContainsFunc(t.Members(), func(m *coerce.Type) bool { return m.Kind() == coerce.Object })
}

func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// identical reports whether a and b are the same value: equal scalars, or
// the same map or slice.
func identical(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !va.IsValid() || !vb.IsValid() {
		return va.IsValid() == vb.IsValid()
	}
	if va.Type() != vb.Type() {
		return false
	}
	switch va.Kind() {
	case reflect.Map, reflect.Pointer:
		return va.UnsafePointer() == vb.UnsafePointer()
	case reflect.Slice:
		return va.UnsafePointer() == vb.UnsafePointer() && va.Len() == vb.Len()
	}
	return va.Comparable() && va.Equal(vb)
}
