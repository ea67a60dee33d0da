package anthropiccoerce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
)

// Options configures the tools [Options.WrapTool] makes and the registries
// [Options.NewTools] and [Options.NewBetaTools] make. The zero value coerces
// with coerce's defaults and reports nothing.
type Options struct {
	// Coerce configures the conversions (e.g. StructuredOnly, WrapScalars)
	// and the decoding of Unmarshal. UseNumber makes no difference to the
	// input text, whose numbers keep their digits. Coerce.OnChange, if set,
	// receives the same changes as OnChange, without the call's context and
	// the tool's name.
	Coerce coerce.Options

	// OnChange, if set, receives each repair made to a tool's input (one
	// [coerce.Change] per converted value, with its JSON Pointer path, the
	// kind found, the type declared and the rule applied), with the call's
	// context and the tool's name, for metrics. A call that needs no repair
	// does not call it. The tool runner runs the tools of one turn
	// concurrently, so it must be safe for concurrent use.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// Logger, if set, logs each repair at debug level with the tool's name,
	// as [coerce.LogChanges] does. A logger not enabled for debug level
	// costs nothing.
	Logger *slog.Logger

	// OnError, if set, observes what could not be fixed: input that does
	// not convert (err joins one *coerce.Error per failing parameter, each
	// with its JSON Pointer path), input that is not a JSON object, an
	// input schema that does not compile (a wrapped tool's, reported at
	// each call), and, from Unmarshal, a value the input does not decode
	// into. A wrapped tool still runs, with the parameters that converted
	// converted and the others as the model sent them, so it fails as it
	// would have without coercion; Input and Unmarshal return the error as
	// well. It must be safe for concurrent use.
	OnError func(ctx context.Context, tool string, err error)

	// OnPreview, if set, is shown the input of each tool_use block of a
	// stream ([Tools.Stream], [BetaTools.Stream]) as it arrives: called
	// after each input_json_delta, with the block (as the stream keys it)
	// and p, the input so far (coerce.Partial: the members complete,
	// converted, the one still open as far as it goes, the JSON Pointers
	// of the values open, and Err once the text can no longer be JSON). A
	// preview is for a UI, never a call to run: only the stream's Close
	// decodes. p is valid until the next delta of the block. It is called
	// from the goroutine that feeds the stream.
	OnPreview func(ctx context.Context, call StreamedCall, p coerce.Partial)
}

// coercer repairs the input of calls to one tool against its compiled input
// schema. It is never modified once made.
type coercer struct {
	opts   Options
	tool   string
	schema *coerce.Schema // nil: the tool takes anything
	err    error          // the schema did not compile
}

// newCoercer compiles the input schema of the named tool; schema is its
// JSON-encodable form, as the SDK's params hold it.
func (o Options) newCoercer(tool string, schema any) *coercer {
	c := &coercer{opts: o, tool: tool}
	text, err := json.Marshal(schema)
	if err != nil {
		c.err = fmt.Errorf("anthropiccoerce: input schema of %q: %w", tool, err)
		return c
	}
	// Changes are reported per call, with the call's context; the compiled
	// schema reports nothing.
	// What a validator would refuse (a required argument missing, a name
	// a closed schema does not declare, a value outside an enum) fails the
	// call too, before any tool runs, in the same pass (Options.Check).
	co := o.Coerce
	co.OnChange, co.Check = nil, true
	if c.schema, err = co.ParseSchema(text); err != nil {
		c.err = fmt.Errorf("anthropiccoerce: input schema of %q: %w", tool, err)
	}
	return c
}

// input repairs the input of one call. On error it returns what it could
// repair: the parameters that converted converted, the others as sent, or
// the input itself if it is not a JSON object.
func (c *coercer) input(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	if c.err != nil {
		c.fail(ctx, c.err)
		return input, c.err
	}
	s := c.schema
	if s == nil {
		return input, nil
	}
	if report := c.reporter(ctx); report != nil {
		o := c.opts.Coerce
		o.OnChange, o.Check = report, true
		s = s.WithOptions(o)
	}
	out, err := s.CoerceJSON(input)
	if err != nil {
		err = &InputError{Tool: c.tool, Err: err, Feedback: s.Feedback(err)}
		c.fail(ctx, err)
	}
	if out == nil {
		out = input
	}
	return out, err
}

// Finished returns nil for a message the model ended itself, and for one
// its output limit cut off (stop_reason "max_tokens", or
// "model_context_window_exceeded": the context window ran out first) an
// error wrapping coerce.ErrTruncated: none of the message's tool_use blocks
// may run, not even one whose input parses, for the input may be cut short
// where the text happens to close. Answer each with a tool_result of
// Feedback(err), with is_error set, which tells the model its call was cut
// off and asks for a smaller one. Call it before Input or Unmarshal.
//
// The tool runner needs no such call: it runs no tool of such a message
// (anthropic-sdk-go v1.84.0 stops the run on either reason).
func (t *Tools) Finished(msg *anthropic.Message) error {
	if msg == nil {
		return nil
	}
	if reason := stopCut(string(msg.StopReason)); reason != "" {
		return cutOff(reason)
	}
	return nil
}

// Finished is [Tools.Finished] for the beta API's message.
func (t *BetaTools) Finished(msg *anthropic.BetaMessage) error {
	if msg == nil {
		return nil
	}
	if reason := stopCut(string(msg.StopReason)); reason != "" {
		return cutOff(reason)
	}
	return nil
}

// stopCut says why a message with the stop reason was cut off, or "" if
// it was not. The beta API's reasons are the same strings.
func stopCut(stopReason string) string {
	switch anthropic.StopReason(stopReason) {
	case anthropic.StopReasonMaxTokens, anthropic.StopReasonModelContextWindowExceeded:
		return "stop_reason: " + stopReason
	}
	return ""
}

// cutOff is the error of every call of a turn the output limit cut off.
func cutOff(reason string) error {
	err := toolcall.CutOff(reason)
	return &InputError{Err: err, Feedback: coerce.Feedback(err)}
}

// An InputError is the error of a call whose input cannot be fixed. Its
// Feedback is the text to send the model as the tool_result, with
// is_error set, so that it corrects its next call: per failing argument
// its JSON Pointer, the type declared, what was found and a valid example
// (coerce.Schema.Feedback). Err joins one *coerce.Error per failure;
// errors.Is(err, coerce.ErrEnum) and the like see through it, and its
// message is Err's: the tool's name is a field, not words.
type InputError struct {
	Tool     string
	Err      error
	Feedback string
}

func (e *InputError) Error() string { return e.Err.Error() }

func (e *InputError) Unwrap() error { return e.Err }

// Feedback returns the text for the model of an error of this package:
// an InputError's Feedback, or for another error, coerce.Feedback of it.
// It returns "" for nil.
func Feedback(err error) string {
	var ie *InputError
	if errors.As(err, &ie) {
		return ie.Feedback
	}
	return coerce.Feedback(err)
}

// unmarshal repairs input against the tool's input schema, the one the
// model was shown, and decodes it into v with coerce.Unmarshal, which
// repairs what v's Go type declares beyond the schema. On any error nothing
// is written to v.
func (c *coercer) unmarshal(ctx context.Context, input json.RawMessage, v any) error {
	raw, err := c.input(ctx, input)
	if err != nil {
		return err
	}
	o := c.opts.Coerce
	o.OnChange = c.reporter(ctx)
	if err := o.Unmarshal(raw, v); err != nil {
		err = fmt.Errorf("anthropiccoerce: input of %q: %w", c.tool, err)
		c.fail(ctx, err)
		return err
	}
	return nil
}

func (c *coercer) reporter(ctx context.Context) func(coerce.Change) {
	return toolcall.ReportChanges(ctx, c.tool, c.opts.Coerce.OnChange, c.opts.OnChange, c.opts.Logger)
}

func (c *coercer) fail(ctx context.Context, err error) {
	if c.opts.OnError != nil {
		c.opts.OnError(ctx, c.tool, err)
	}
}

// WrapTool returns t with its input repaired before it runs, with coerce's
// default options. See [Options.WrapTool].
func WrapTool(t anthropic.BetaTool) anthropic.BetaTool { return Options{}.WrapTool(t) }

// WrapTools wraps each of tools, for the tool runner: it returns a new
// slice, in the same order. See [Options.WrapTool].
func WrapTools(tools ...anthropic.BetaTool) []anthropic.BetaTool {
	return Options{}.WrapTools(tools...)
}

// WrapTools wraps each of tools with o, for the tool runner.
func (o Options) WrapTools(tools ...anthropic.BetaTool) []anthropic.BetaTool {
	out := make([]anthropic.BetaTool, len(tools))
	for i, t := range tools {
		out[i] = o.WrapTool(t)
	}
	return out
}

// WrapTool returns a tool with t's name, description and input schema whose
// Execute converts each parameter of the input to the type the schema
// declares, and then runs t's Execute with the result. The tool runner
// (client.Beta.Messages.NewToolRunner and NewToolRunnerStreaming) calls
// Execute with the input of the model's tool_use block, so t, and the
// json.Unmarshal inside the toolrunner package's tools, get arguments that
// fit.
//
// t's input schema is compiled once, here. A schema that does not compile is
// reported to OnError at each call, and t then runs with the input as sent.
// A nil t is returned as it is.
//
// The runner names the OpenTelemetry span of a tool that the SDK's mcp
// package made by a method outside the BetaTool interface, which the
// wrapper cannot carry: such a tool, wrapped, runs as before, but its span
// is named as a custom tool's (anthropic.custom_tool_use).
func (o Options) WrapTool(t anthropic.BetaTool) anthropic.BetaTool {
	if t == nil {
		return nil
	}
	return &wrapped{BetaTool: t, c: o.newCoercer(t.Name(), t.InputSchema())}
}

// wrapped is a BetaTool whose input is repaired before it runs. Name,
// Description and InputSchema are those of the tool it wraps, so that the
// runner declares the tool to the model unchanged.
type wrapped struct {
	anthropic.BetaTool
	c *coercer
}

// Execute repairs input and runs the wrapped tool with it. What cannot be
// repaired is passed on as sent, so that the tool fails as it would have
// without coercion, and the runner sends the model the tool's error.
func (w *wrapped) Execute(ctx context.Context, input json.RawMessage) ([]anthropic.BetaToolResultBlockParamContentUnion, error) {
	repaired, _ := w.c.input(ctx, input) // OnError has heard the error
	return w.BetaTool.Execute(ctx, repaired)
}

// Tools repairs the input of the tool_use blocks of Messages API replies,
// for a program that runs its tools itself, against the input schemas of the
// custom tools a request declared. It is safe for concurrent use.
type Tools struct{ registry }

// BetaTools is [Tools] for the beta Messages API (client.Beta.Messages). It
// is safe for concurrent use.
type BetaTools struct{ registry }

// registry holds a coercer per tool name. It is never modified once built.
type registry struct {
	opts  Options
	tools map[string]*coercer
}

func (r *registry) add(name string, schema any) error {
	if _, dup := r.tools[name]; dup {
		// The API rejects a request naming a tool twice; a registry that
		// silently kept one of two schemas would repair against the wrong
		// one.
		return fmt.Errorf("anthropiccoerce: tool %q declared twice", name)
	}
	c := r.opts.newCoercer(name, schema)
	// Kept even when the schema does not compile, so that a second tool of
	// the name is reported too (the registry is then not returned at all).
	r.tools[name] = c
	return c.err
}

// input repairs the input of a call to the named tool. A tool the registry
// does not know is passed through, without error: the program's own
// dispatch answers for an unknown name.
func (r *registry) input(ctx context.Context, name string, input json.RawMessage) (json.RawMessage, error) {
	c := r.tools[name]
	if c == nil {
		return input, nil
	}
	return c.input(ctx, input)
}

func (r *registry) unmarshal(ctx context.Context, name string, input json.RawMessage, v any) error {
	c := r.tools[name]
	if c == nil {
		// Nothing is known of the tool but v's Go type.
		c = &coercer{opts: r.opts, tool: name}
	}
	return c.unmarshal(ctx, input, v)
}

// NewTools compiles the input schema of each custom tool in tools, the Tools
// of the anthropic.MessageNewParams the model was sent, with coerce's
// default options. See [Options.NewTools].
func NewTools(tools []anthropic.ToolUnionParam) (*Tools, error) { return Options{}.NewTools(tools) }

// NewTools compiles the input schema of each custom tool in tools, once.
// Server tools (web search, code execution, ...) and client tools whose
// input Anthropic defines (bash, text editor) are left out. It fails if a
// schema is not one coerce can read, or a name is declared twice; both are
// mistakes in the program's own tool list, best found when it starts.
func (o Options) NewTools(tools []anthropic.ToolUnionParam) (*Tools, error) {
	t := &Tools{registry{opts: o, tools: make(map[string]*coercer, len(tools))}}
	var errs []error
	for _, tool := range tools {
		if p := tool.OfTool; p != nil {
			errs = append(errs, t.add(p.Name, p.InputSchema))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

// Input returns the block's Input with every parameter converted to the type
// the tool's input schema declares: JSON text where an array or object was
// declared is parsed, "5" becomes 5 for an integer, an object becomes JSON
// text for a string, and so on, by the rules of package coerce. Parameters
// that already conform keep their bytes; when nothing needs converting,
// Input is returned as the model sent it.
//
// The error joins one *coerce.Error per parameter that could not be
// converted; those stay as sent, the others are converted. A block calling a
// tool the registry does not know is returned as it is, with no error.
func (t *Tools) Input(ctx context.Context, block anthropic.ToolUseBlock) (json.RawMessage, error) {
	return t.input(ctx, block.Name, block.Input)
}

// Unmarshal decodes the block's Input into v, as json.Unmarshal would, once
// Input has repaired it against the tool's input schema and coerce.Unmarshal
// against v's Go type. Integers beyond 2^53 land exactly in int64, uint64
// and json.Number fields. On any error nothing is written to v; the text to
// send the model as the tool_result (with is_error) is [Feedback](err), which
// names each failing argument, the type declared and a valid example.
func (t *Tools) Unmarshal(ctx context.Context, block anthropic.ToolUseBlock, v any) error {
	return t.unmarshal(ctx, block.Name, block.Input, v)
}

// NewBetaTools compiles the input schema of each custom tool in tools, the
// Tools of the anthropic.BetaMessageNewParams the model was sent, with
// coerce's default options. See [Options.NewBetaTools].
func NewBetaTools(tools []anthropic.BetaToolUnionParam) (*BetaTools, error) {
	return Options{}.NewBetaTools(tools)
}

// NewBetaTools is [Options.NewTools] for the beta Messages API.
func (o Options) NewBetaTools(tools []anthropic.BetaToolUnionParam) (*BetaTools, error) {
	t := &BetaTools{registry{opts: o, tools: make(map[string]*coercer, len(tools))}}
	var errs []error
	for _, tool := range tools {
		if p := tool.OfTool; p != nil {
			errs = append(errs, t.add(p.Name, p.InputSchema))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

// Input is [Tools.Input] for a beta tool_use block. It reads the input as
// the API sent it (the block's JSON metadata), since the SDK decodes a beta
// block's Input into a Go value whose numbers are float64s, which would
// round an integer beyond 2^53; a block built in Go has no such text, and
// its Input is read as it is if it is text (json.RawMessage, []byte), and
// encoded otherwise.
func (t *BetaTools) Input(ctx context.Context, block anthropic.BetaToolUseBlock) (json.RawMessage, error) {
	input, err := betaInput(block)
	if err != nil {
		t.fail(ctx, block.Name, err)
		return nil, err
	}
	return t.input(ctx, block.Name, input)
}

// Unmarshal is [Tools.Unmarshal] for a beta tool_use block, reading its
// input as [BetaTools.Input] does.
func (t *BetaTools) Unmarshal(ctx context.Context, block anthropic.BetaToolUseBlock, v any) error {
	input, err := betaInput(block)
	if err != nil {
		t.fail(ctx, block.Name, err)
		return err
	}
	return t.unmarshal(ctx, block.Name, input, v)
}

func (r *registry) fail(ctx context.Context, tool string, err error) {
	if r.opts.OnError != nil {
		r.opts.OnError(ctx, tool, err)
	}
}

func betaInput(block anthropic.BetaToolUseBlock) (json.RawMessage, error) {
	if raw := block.JSON.Input.Raw(); raw != "" {
		return json.RawMessage(raw), nil
	}
	// A block built in Go from the input's text (a stream's deltas, say):
	// the text itself, which coerce reads, cut off or not.
	switch v := block.Input.(type) {
	case json.RawMessage:
		return v, nil
	case []byte:
		return v, nil
	}
	input, err := json.Marshal(block.Input)
	if err != nil {
		return nil, fmt.Errorf("anthropiccoerce: input of %q: %w", block.Name, err)
	}
	return input, nil
}
