package genkitcoerce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
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
	// *coerce.Error for each parameter that failed (names the schema does
	// not declare, required ones missing and values outside an enum among
	// them, see coerce.Schema.Check), joined with errors.Join, or the
	// error of coerce.ParseSchema for an input schema it cannot compile.
	OnError func(ctx context.Context, tool string, err error)

	// KeepSDKErrors lets a tool request whose input cannot be repaired go
	// on to Genkit, whose validation fails the whole generate call (a
	// failing tool ends it). By default the middleware answers such a
	// request itself: it asks the model again, with a tool response whose
	// output is coerce.Schema.Feedback (per failing argument its path, the
	// type declared, what was found and a valid example), so that the
	// model corrects the call, and the tool never runs with the broken
	// input. It asks at most three times, then lets Genkit decide.
	//
	// A response its output limit cut off is answered so whatever
	// KeepSDKErrors says: see [Options.Middleware].
	KeepSDKErrors bool

	// NoticeRepairs tells the model, with the tool's response on its next
	// turn, how the input of each repaired tool request was repaired
	// (coerce.Notice), so that it sends it as declared next time: a text
	// part after the tool responses.
	NoticeRepairs bool

	// OnChange, if set, is called for each conversion made in a tool
	// input, with the context of the generate call and the tool's name: a
	// server can count how its model breaks tool calls. Nil costs nothing.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// Logger, if set, logs each conversion at debug level and each
	// rejected argument at warn level, with the tool's name and the
	// argument's path, declared type, kind and preview found, and rule.
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
// A response its output limit cut off (ai.FinishReasonLength) runs none of
// its tool requests, not even one whose input validates: the middleware
// asks the model again, with the feedback of coerce.ErrTruncated as each
// tool response, at most three times; a model cut off a fourth time in a
// row fails the generate call with an error wrapping coerce.ErrTruncated.
// OnError hears each request refused.
//
// Each input schema is compiled once, the first time the model calls the
// tool, and kept for the process; the middleware is safe for concurrent use
// by any number of generate calls.
func (o Options) Middleware() ai.ModelMiddleware {
	r := &repairer{o: o}
	return func(next ai.ModelFunc) ai.ModelFunc {
		return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			req = r.withNotices(req)
			for turn := 0; ; turn++ {
				resp, err := next(ctx, req, cb)
				if err != nil || req == nil || resp == nil || resp.Message == nil {
					return resp, err
				}
				if cut := r.cutOff(ctx, resp); cut != nil {
					// None of the turn's tool requests may run, whatever
					// KeepSDKErrors says: Genkit has no error of its own
					// for them, and would run every one that validates.
					if turn == maxFeedbackTurns {
						return nil, fmt.Errorf("genkitcoerce: the model's output was cut off at its limit %d times in a row, and no tool ran: %w", turn+1, cut.err)
					}
					req = feedbackRequest(req, resp, cut.rejected)
					continue
				}
				out, rejected := r.response(ctx, req.Tools, resp)
				if len(rejected) == 0 || turn == maxFeedbackTurns {
					return out, nil
				}
				req = feedbackRequest(req, resp, rejected)
			}
		}
	}
}

// maxFeedbackTurns bounds how many times one model call asks the model
// again after its tool requests were refused.
const maxFeedbackTurns = 3

// A cutOff is a response its output limit cut off, with tool requests:
// the feedback that refuses each (by index in the message's content), and
// the error that says why.
type cutOff struct {
	rejected map[int]string
	err      error
}

// cutOff returns, for a response the output limit cut off
// (ai.FinishReasonLength) that holds tool requests, the feedback that
// refuses every one of them: none may run, not even one whose input
// validates, for the input may be cut short where the text happens to
// close. It returns nil for any other response.
func (r *repairer) cutOff(ctx context.Context, resp *ai.ModelResponse) *cutOff {
	if resp.FinishReason != ai.FinishReasonLength {
		return nil
	}
	err := toolcall.CutOff("finish reason: length")
	feedback := coerce.Feedback(err)
	l := toolcall.Listeners{OnError: r.o.OnError, Logger: r.o.Logger}
	var rejected map[int]string
	for i, p := range resp.Message.Content {
		if !p.IsToolRequest() || p.ToolRequest == nil {
			continue
		}
		if rejected == nil {
			rejected = map[int]string{}
		}
		rejected[i] = feedback
		l.Rejected(ctx, p.ToolRequest.Name, err)
	}
	if rejected == nil {
		return nil
	}
	return &cutOff{rejected: rejected, err: err}
}

// feedbackRequest is req followed by the model's response and the tool
// responses that refuse its requests: with the feedback for those in
// rejected (by index in resp.Message.Content), and, since Genkit runs a
// turn's tool requests together, asking the others to be sent again.
func feedbackRequest(req *ai.ModelRequest, resp *ai.ModelResponse, rejected map[int]string) *ai.ModelRequest {
	tool := &ai.Message{Role: ai.RoleTool}
	for i, p := range resp.Message.Content {
		if !p.IsToolRequest() || p.ToolRequest == nil {
			continue
		}
		text, ok := rejected[i]
		if !ok {
			text = "Not run: another tool request of this turn had invalid arguments. Send this request again with the corrected one."
		}
		tool.Content = append(tool.Content, ai.NewToolResponsePart(&ai.ToolResponse{
			Name: p.ToolRequest.Name, Ref: p.ToolRequest.Ref, Output: text,
		}))
	}
	out := *req
	out.Messages = append(slices.Clip(req.Messages), resp.Message, tool)
	return &out
}

// repairer is the state of one middleware: the schema of each tool, by
// name, as compiled with the middleware's options.
type repairer struct {
	o       Options
	tools   sync.Map // tool name → *toolSchema
	notices sync.Map // noticeKey → the notice of a repaired request, until its response goes to the model
	noticed atomic.Int64
}

// maxNotices bounds the notices kept for responses still to come.
const maxNotices = 1024

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
func (r *repairer) response(ctx context.Context, tools []*ai.ToolDefinition, resp *ai.ModelResponse) (*ai.ModelResponse, map[int]string) {
	var content []*ai.Part // a copy of resp.Message.Content, made on the first repair
	var rejected map[int]string
	for i, p := range resp.Message.Content {
		if !p.IsToolRequest() || p.ToolRequest == nil || p.ToolRequest.Partial || p.ToolRequest.Input == nil {
			continue
		}
		input, changed, feedback := r.input(ctx, tools, p.ToolRequest)
		if feedback != "" {
			if rejected == nil {
				rejected = map[int]string{}
			}
			rejected[i] = feedback
			continue
		}
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
	if rejected != nil || content == nil {
		return resp, rejected
	}
	msg := *resp.Message
	msg.Content = content
	out := *resp
	out.Message = &msg
	return &out, nil
}

// input repairs the input of one tool request and reports whether it
// changed, or returns the feedback that refuses it.
func (r *repairer) input(ctx context.Context, tools []*ai.ToolDefinition, req *ai.ToolRequest) (any, bool, string) {
	i := slices.IndexFunc(tools, func(t *ai.ToolDefinition) bool { return t != nil && t.Name == req.Name })
	if i < 0 || tools[i].InputSchema == nil {
		return nil, false, ""
	}
	l := toolcall.Listeners{Inner: r.o.Coerce.OnChange, OnChange: r.o.OnChange, OnError: r.o.OnError, Logger: r.o.Logger}
	ts := r.schema(req.Name, tools[i].InputSchema)
	if ts.err != nil {
		l.Rejected(ctx, req.Name, ts.err)
		return nil, false, ""
	}
	o, changes := toolcall.Collect(r.o.Coerce, r.o.NoticeRepairs || l.Hears(ctx))
	s := ts.schema
	if changes != nil {
		s = s.WithOptions(o)
	}
	out, changed, err := repair(s, o, ts.params, req.Input)
	if !r.o.KeepSDKErrors {
		// Genkit validates the input before the tool runs, and a failure
		// ends the generate call: what its validation would refuse is
		// checked here, so that the model hears of it instead.
		v := out
		if !changed {
			v = req.Input
		}
		if m, ok := v.(map[string]any); ok && ts.params {
			err = errors.Join(err, ts.schema.Check(m))
		}
	}
	if err != nil {
		l.Rejected(ctx, req.Name, err)
		if !r.o.KeepSDKErrors && toolcall.Arguments(err) {
			return nil, false, ts.schema.Feedback(err)
		}
	}
	if changed && changes != nil && len(*changes) > 0 {
		l.Repaired(ctx, req.Name, *changes)
		if r.o.NoticeRepairs {
			// By name too: Genkit gives a request its Ref only after the
			// model middleware returns.
			if r.noticed.Add(1) > maxNotices {
				// Notices of generate calls that ended with the tool
				// must not pile up: start over.
				r.notices.Clear()
				r.noticed.Store(0)
			}
			r.notices.Store(noticeKey{req.Name, req.Ref}, coerce.Notice(*changes))
		}
	}
	return out, changed, ""
}

// A noticeKey names a tool request, so that the notice of its repair
// goes with its response.
type noticeKey struct{ name, ref string }

// withNotices returns req with, after the tool responses of its last
// message, the notices of the repairs made to the requests they answer.
func (r *repairer) withNotices(req *ai.ModelRequest) *ai.ModelRequest {
	if !r.o.NoticeRepairs || req == nil || len(req.Messages) == 0 {
		return req
	}
	last := req.Messages[len(req.Messages)-1]
	if last == nil || last.Role != ai.RoleTool {
		return req
	}
	var notices []*ai.Part
	for _, p := range last.Content {
		if !p.IsToolResponse() || p.ToolResponse == nil {
			continue
		}
		n, ok := r.notices.LoadAndDelete(noticeKey{p.ToolResponse.Name, p.ToolResponse.Ref})
		if !ok {
			n, ok = r.notices.LoadAndDelete(noticeKey{p.ToolResponse.Name, ""})
		}
		if ok && n.(string) != "" {
			notices = append(notices, ai.NewTextPart(n.(string)))
		}
	}
	if notices == nil {
		return req
	}
	msg := *last
	msg.Content = append(slices.Clip(last.Content), notices...)
	out := *req
	out.Messages = append(slices.Clone(req.Messages[:len(req.Messages)-1]), &msg)
	return &out
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
