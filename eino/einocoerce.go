package einocoerce

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

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
)

// Options configure the coercion that [Options.Install] and [Options.Wrap]
// put in front of tools. The zero value coerces with coerce's defaults and
// reports nothing.
type Options struct {
	// Coerce compiles each tool's parameter schema, and so sets how values
	// are converted (see coerce.Options). Its OnChange, if set, is called
	// for each change too, without the tool name or the context.
	Coerce coerce.Options

	// OnError, if set, is called when some arguments of a tool call could
	// not be coerced or break the schema's other rules (a required
	// argument missing, a name a closed object does not declare, a value
	// outside an enum: see coerce.Schema.Check), or the tool's schema could
	// not be read or compiled. err joins one *coerce.Error per failing
	// argument (see coerce.Error.Path). tool is the tool's name; it is
	// empty when the tool's Info failed.
	OnError func(ctx context.Context, tool string, err error)

	// KeepSDKErrors lets a call whose arguments cannot be fixed go on to
	// the tool: the arguments that converted are converted, the others
	// reach it as the model sent them, and its own decoding reports them,
	// usually as an error that ends the graph's run. By default the tool
	// does not run, and the call's output, which the ToolsNode hands back
	// to the model, is coerce.Schema.Feedback: per failing argument its
	// path, the type declared, what was found and a valid example, so that
	// the model corrects its call on its next turn.
	KeepSDKErrors bool

	// Validate also refuses, with the same feedback, calls that break the
	// schema's other rules, which eino never checks: a required argument
	// missing, a name an object with additionalProperties false does not
	// declare, a value outside an enum (see coerce.Schema.Check). It is
	// off by default because the schemas eino infers from Go structs
	// (utils.InferTool) require every field, so a model that leaves out
	// one the tool treats as optional would be refused; turn it on for
	// tools whose schemas say what they mean.
	Validate bool

	// NoticeRepairs appends to the output of a repaired call (of
	// InvokableRun, and a text part to that of an enhanced tool's) a text
	// saying how its arguments were repaired (coerce.Notice), so that the
	// model sends them as declared next time. Streamed outputs are left
	// as they are.
	NoticeRepairs bool

	// OnChange, if set, is called for each conversion made in a call's
	// arguments, with the call's context and the tool's name. Leaving it
	// nil costs nothing per call.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// Logger, if set, logs each conversion at debug level and each
	// rejected argument at warn level, with the tool's name and the
	// argument's path, declared type, kind and preview found, and rule.
	Logger *slog.Logger
}

// Install is [Options.Install] with the zero Options.
func Install(conf *compose.ToolsNodeConfig) { Options{}.Install(conf) }

// Install puts coercion in front of every tool in conf.Tools, so that the
// arguments of each call reach the tool as its schema declares them. Call it
// once conf.Tools is complete, before compose.NewToolNode (or the agent
// constructor that takes conf):
//
//	einocoerce.Install(&conf)
//	node, err := compose.NewToolNode(ctx, &conf)
//
// It replaces conf.Tools with a new slice of wrapped tools (see
// [Options.Wrap]); the slice conf held is not modified, and nothing else in
// conf changes, so a ToolArgumentsHandler or ToolCallMiddlewares already set
// keep running, before coercion. Tools added to conf.Tools afterwards, or
// passed to a run with compose.WithToolList, are not coerced unless they
// are wrapped too. Installing again replaces the options of the tools
// already wrapped rather than coercing twice.
func (o Options) Install(conf *compose.ToolsNodeConfig) {
	tools := make([]tool.BaseTool, len(conf.Tools))
	for i, t := range conf.Tools {
		tools[i] = o.Wrap(t)
	}
	conf.Tools = tools
}

// Wrap is [Options.Wrap] with the zero Options.
func Wrap(t tool.BaseTool) tool.BaseTool { return Options{}.Wrap(t) }

// Wrap returns t with coercion in front of it: each call's arguments are
// converted to the types t's schema declares, then handed to t. Use it for
// tools given to a run with compose.WithToolList, or called without a
// ToolsNode:
//
//	search := einocoerce.Wrap(searchTool).(tool.InvokableTool)
//	out, err := search.InvokableRun(ctx, `{"tags": "[\"go\"]", "limit": "5"}`)
//
// The tool returned implements the same run interfaces as t
// (tool.InvokableTool, tool.StreamableTool, tool.EnhancedInvokableTool,
// tool.EnhancedStreamableTool) and no others, and reports t's Info, type
// name (components.Typer) and callback behavior (components.Checker), so
// that a ToolsNode runs it, and its callbacks label it, as it would t. A
// tool that implements none of the run interfaces is returned as it is;
// a tool Wrap returned is wrapped again with o instead of twice.
//
// The schema is read from t.Info(ctx).ParamsOneOf on the first call, with
// that call's context, compiled with o.Coerce, and kept for the tool's
// lifetime; a failure to compile is kept too, while an error from Info is
// retried on the next call. A tool without parameters (ParamsOneOf nil) is
// called with its arguments untouched.
func (o Options) Wrap(t tool.BaseTool) tool.BaseTool {
	if w, ok := t.(wrapper); ok {
		t = w.shared().inner
	}
	c := &core{inner: t, opts: o}
	it, invokable := t.(tool.InvokableTool)
	st, streamable := t.(tool.StreamableTool)
	eit, enhancedInvokable := t.(tool.EnhancedInvokableTool)
	est, enhancedStreamable := t.(tool.EnhancedStreamableTool)
	// A tool cannot implement both forms of InvokableRun, nor both forms of
	// StreamableRun, since each pair shares a method name. That leaves
	// eight combinations, one type each, so that the wrapper has exactly
	// the methods of the tool: the ToolsNode picks its endpoints by type
	// assertion.
	var (
		inv  = invoke{c, it}
		str  = stream{c, st}
		einv = enhancedInvoke{c, eit}
		estr = enhancedStream{c, est}
	)
	switch {
	case invokable && streamable:
		return &invokableStreamable{c, inv, str}
	case invokable && enhancedStreamable:
		return &invokableEnhancedStreamable{c, inv, estr}
	case invokable:
		return &invokableTool{c, inv}
	case enhancedInvokable && enhancedStreamable:
		return &enhancedInvokableEnhancedStreamable{c, einv, estr}
	case enhancedInvokable && streamable:
		return &enhancedInvokableStreamable{c, einv, str}
	case enhancedInvokable:
		return &enhancedInvokableTool{c, einv}
	case streamable:
		return &streamableTool{c, str}
	case enhancedStreamable:
		return &enhancedStreamableTool{c, estr}
	}
	return t
}

// wrapper is implemented by every tool Wrap returns.
type wrapper interface{ shared() *core }

// core is what every wrapped tool shares: the tool, the options, and the
// compiled schema once the first call has read it.
type core struct {
	inner tool.BaseTool
	opts  Options

	mu       sync.Mutex // serializes compiling
	compiled atomic.Pointer[compiled]
}

// compiled is the outcome of reading and compiling a tool's schema.
type compiled struct {
	name   string
	schema *coerce.Schema // nil: the tool has no parameters, or err is set
	opts   coerce.Options // schema's options
	err    error          // the schema could not be compiled
}

func (c *core) shared() *core { return c }

// Info returns the wrapped tool's Info.
func (c *core) Info(ctx context.Context) (*schema.ToolInfo, error) { return c.inner.Info(ctx) }

// GetType returns the wrapped tool's type name, as eino would name it, so
// that callbacks and traces label the tool as they did before it was
// wrapped: its own GetType if it has one, otherwise the name of its type
// with pointers removed. (eino names a tool whose type is a func type by
// the function's name instead; such tools are rare, and get the type's
// name here.)
func (c *core) GetType() string {
	if typ, ok := components.GetType(c.inner); ok {
		return typ
	}
	rt := reflect.TypeOf(c.inner)
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	return rt.Name()
}

// IsCallbacksEnabled reports the wrapped tool's answer: a tool that runs
// its own callbacks keeps doing so, and the ToolsNode runs them around the
// others, as it did before. Either way they run once.
func (c *core) IsCallbacksEnabled() bool { return components.IsCallbacksEnabled(c.inner) }

// load returns the compiled schema, reading and compiling it on first use.
func (c *core) load(ctx context.Context) (*compiled, error) {
	if k := c.compiled.Load(); k != nil {
		return k, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.compiled.Load(); k != nil {
		return k, nil
	}
	info, err := c.inner.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("einocoerce: tool info: %w", err)
	}
	if info == nil {
		return nil, fmt.Errorf("einocoerce: tool info is nil")
	}
	k := &compiled{name: info.Name, opts: c.opts.Coerce}
	k.schema, k.err = compile(info, k.opts)
	c.compiled.Store(k)
	return k, nil
}

// compile compiles the parameter schema of a tool; it returns nil, nil for
// a tool without parameters.
func compile(info *schema.ToolInfo, opts coerce.Options) (*coerce.Schema, error) {
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		return nil, fmt.Errorf("einocoerce: tool %q: parameters: %w", info.Name, err)
	}
	if js == nil {
		return nil, nil
	}
	text, err := json.Marshal(js)
	if err != nil {
		return nil, fmt.Errorf("einocoerce: tool %q: parameters: %w", info.Name, err)
	}
	s, err := opts.ParseSchema(text)
	if err != nil {
		return nil, fmt.Errorf("einocoerce: tool %q: parameters: %w", info.Name, err)
	}
	return s, nil
}

// A call is a tool call's arguments as coercion leaves them: converted
// (the very string given when nothing needed converting, or nothing could
// be done), or refused with feedback for the model; and the notice of
// the repairs, if asked for.
type call struct {
	args   string
	reject string
	notice string
}

// coerce converts a call's arguments to the tool's schema, or refuses a
// call of a reply the output limit cut off (see Options.WrapModel).
func (c *core) coerce(ctx context.Context, args string) call {
	id := compose.GetToolCallID(ctx)
	if id != "" {
		if feedback := cutOffFeedback(id, "", args); feedback != "" {
			return call{args: args, reject: feedback}
		}
	}
	if blank(args) {
		// No arguments: the tool decides what that means, and an error about
		// it from coercion would be noise.
		return call{args: args}
	}
	k, err := c.load(ctx)
	if err == nil && id == "" {
		// A call without an ID is known by its tool's name and arguments.
		if feedback := cutOffFeedback("", k.name, args); feedback != "" {
			return call{args: args, reject: feedback}
		}
	}
	if err == nil {
		err = k.err
	}
	if err != nil {
		c.fail(ctx, k, err)
		return call{args: args}
	}
	if k.schema == nil {
		return call{args: args}
	}
	l := toolcall.Listeners{Inner: k.opts.OnChange, OnChange: c.opts.OnChange, OnError: c.opts.OnError, Logger: c.opts.Logger}
	o, changes := toolcall.Collect(k.opts, c.opts.NoticeRepairs || l.Hears(ctx))
	s := k.schema
	if changes != nil {
		s = s.WithOptions(o)
	}
	in := []byte(args)
	out, err := s.CoerceJSON(in)
	if c.opts.Validate && !c.opts.KeepSDKErrors {
		// Nothing in eino validates arguments before the tool decodes
		// them, so what a validator would refuse is checked here.
		err = errors.Join(err, k.schema.CheckJSON(out))
	}
	if err != nil {
		l.Rejected(ctx, k.name, err)
		if !c.opts.KeepSDKErrors && toolcall.Arguments(err) {
			return call{args: args, reject: k.schema.Feedback(err)}
		}
	}
	res := call{args: args}
	if len(out) != len(in) || (len(in) > 0 && &out[0] != &in[0]) {
		res.args = string(out) // CoerceJSON returns its input when it changed nothing
	}
	if changes != nil && len(*changes) > 0 {
		l.Repaired(ctx, k.name, *changes)
		if c.opts.NoticeRepairs {
			res.notice = coerce.Notice(*changes)
		}
	}
	return res
}

func (c *core) fail(ctx context.Context, k *compiled, err error) {
	name := ""
	if k != nil {
		name = k.name
	}
	toolcall.Listeners{OnError: c.opts.OnError, Logger: c.opts.Logger}.Rejected(ctx, name, err)
}

// blank reports whether args is empty or JSON whitespace only.
func blank(args string) bool {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// The run methods, one type for each, combined below into the wrappers.

type invoke struct {
	c  *core
	it tool.InvokableTool
}

func (r invoke) InvokableRun(ctx context.Context, argumentsInJSON string, opts ...tool.Option) (string, error) {
	call := r.c.coerce(ctx, argumentsInJSON)
	if call.reject != "" {
		return call.reject, nil
	}
	out, err := r.it.InvokableRun(ctx, call.args, opts...)
	if err == nil && call.notice != "" {
		out += "\n\n" + call.notice
	}
	return out, err
}

type stream struct {
	c  *core
	st tool.StreamableTool
}

func (r stream) StreamableRun(ctx context.Context, argumentsInJSON string, opts ...tool.Option) (*schema.StreamReader[string], error) {
	call := r.c.coerce(ctx, argumentsInJSON)
	if call.reject != "" {
		return schema.StreamReaderFromArray([]string{call.reject}), nil
	}
	return r.st.StreamableRun(ctx, call.args, opts...)
}

type enhancedInvoke struct {
	c   *core
	eit tool.EnhancedInvokableTool
}

func (r enhancedInvoke) InvokableRun(ctx context.Context, toolArgument *schema.ToolArgument, opts ...tool.Option) (*schema.ToolResult, error) {
	a, call := r.c.coerceArgument(ctx, toolArgument)
	if call.reject != "" {
		return textResult(call.reject), nil
	}
	res, err := r.eit.InvokableRun(ctx, a, opts...)
	if err == nil && res != nil && call.notice != "" {
		out := *res
		out.Parts = append(slices.Clip(res.Parts), schema.ToolOutputPart{Type: schema.ToolPartTypeText, Text: call.notice})
		return &out, nil
	}
	return res, err
}

func textResult(text string) *schema.ToolResult {
	return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: text}}}
}

type enhancedStream struct {
	c   *core
	est tool.EnhancedStreamableTool
}

func (r enhancedStream) StreamableRun(ctx context.Context, toolArgument *schema.ToolArgument, opts ...tool.Option) (*schema.StreamReader[*schema.ToolResult], error) {
	a, call := r.c.coerceArgument(ctx, toolArgument)
	if call.reject != "" {
		return schema.StreamReaderFromArray([]*schema.ToolResult{textResult(call.reject)}), nil
	}
	return r.est.StreamableRun(ctx, a, opts...)
}

// coerceArgument is coerce for the enhanced tools' argument; it returns a
// copy when the text changes, never modifying the caller's.
func (c *core) coerceArgument(ctx context.Context, a *schema.ToolArgument) (*schema.ToolArgument, call) {
	if a == nil {
		return a, call{}
	}
	res := c.coerce(ctx, a.Text)
	if res.args == a.Text {
		return a, res
	}
	b := *a
	b.Text = res.args
	return &b, res
}

type (
	invokableTool struct {
		*core
		invoke
	}
	streamableTool struct {
		*core
		stream
	}
	invokableStreamable struct {
		*core
		invoke
		stream
	}
	enhancedInvokableTool struct {
		*core
		enhancedInvoke
	}
	enhancedStreamableTool struct {
		*core
		enhancedStream
	}
	enhancedInvokableEnhancedStreamable struct {
		*core
		enhancedInvoke
		enhancedStream
	}
	invokableEnhancedStreamable struct {
		*core
		invoke
		enhancedStream
	}
	enhancedInvokableStreamable struct {
		*core
		enhancedInvoke
		stream
	}
)
