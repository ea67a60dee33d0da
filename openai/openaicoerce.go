package openaicoerce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// Options configures the registries [Options.NewChatTools] and
// [Options.NewResponseTools] make. The zero value coerces with coerce's
// defaults and reports nothing.
type Options struct {
	// Coerce configures the conversions (e.g. StructuredOnly, WrapScalars)
	// and the decoding of Unmarshal. UseNumber makes no difference to the
	// argument text, whose numbers keep their digits. Coerce.OnChange, if
	// set, receives the same changes as OnChange, without the call's
	// context and the tool's name.
	Coerce coerce.Options

	// OnChange, if set, receives each repair made to a call's arguments
	// (one [coerce.Change] per converted value, with its JSON Pointer path,
	// the kind found, the type declared and the rule applied), with the
	// context given to Arguments or Unmarshal and the function's name, for
	// metrics. A call that needs no repair does not call it. It is called
	// from the goroutine of the call and must be safe for concurrent use if
	// the registry is.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// Logger, if set, logs each repair at debug level with the function's
	// name, as [coerce.LogChanges] does. A logger not enabled for debug
	// level costs nothing.
	Logger *slog.Logger

	// OnError, if set, observes what could not be fixed: arguments that do
	// not convert (err joins one *coerce.Error per failing parameter, each
	// with its JSON Pointer path), argument text that is not a JSON object,
	// and, from Unmarshal, a value the arguments do not decode into. The
	// same error is returned to the caller, who decides what the model is
	// told; OnError is the one place to count them all.
	OnError func(ctx context.Context, tool string, err error)

	// OnPreview, if set, is shown the arguments of each function call of
	// a stream ([ChatTools.Stream], [ResponseTools.Stream]) as they
	// arrive: called after each delta, with the call (as the API keys it)
	// and p, the arguments so far (coerce.Partial: the members complete,
	// converted, the one still open as far as it goes, the JSON Pointers
	// of the values open, and Err once the text can no longer be JSON). A
	// preview is for a UI, never a call to run: only the stream's Close
	// decodes. p is valid until the next delta of the call. It is called
	// from the goroutine that feeds the stream.
	OnPreview func(ctx context.Context, call StreamedCall, p coerce.Partial)
}

// A name is the key of a function in a registry: its name, and for a
// function inside a Responses API namespace tool, the namespace's.
type name struct{ namespace, function string }

func (n name) String() string {
	if n.namespace == "" {
		return n.function
	}
	return n.namespace + "." + n.function
}

// registry holds the compiled parameter schema of each function tool. It is
// never modified after it is built, so it is safe for concurrent use.
type registry struct {
	opts    Options
	schemas map[name]*coerce.Schema // nil for a function without parameters
}

// add compiles the parameters of one function. Functions without parameters
// take anything, and are left out: their arguments pass through untouched.
func (r *registry) add(n name, parameters any) error {
	if _, dup := r.schemas[n]; dup {
		// The API rejects a request naming a function twice; a registry
		// that silently kept one of two schemas would repair against the
		// wrong one.
		return fmt.Errorf("openaicoerce: function %q declared twice", n)
	}
	// The name is taken as soon as it is declared, whatever its parameters:
	// a function without any (kept as nil, taking anything) or whose schema
	// does not compile is still a declaration a second one repeats.
	r.schemas[n] = nil
	if parameters == nil {
		return nil
	}
	if m, ok := parameters.(map[string]any); ok && len(m) == 0 {
		return nil
	}
	text, err := json.Marshal(parameters)
	if err != nil {
		return fmt.Errorf("openaicoerce: parameters of %q: %w", n, err)
	}
	if string(text) == "null" || string(text) == "{}" {
		return nil
	}
	// Changes are reported per call, with the call's context (see
	// schemaFor); the compiled schema reports nothing.
	// What a validator would refuse (a required argument missing, a name
	// a closed schema does not declare, a value outside an enum) fails the
	// call too, before any tool runs, in the same pass (Options.Check).
	o := r.opts.Coerce
	o.OnChange, o.Check = nil, true
	s, err := o.ParseSchema(text)
	if err != nil {
		return fmt.Errorf("openaicoerce: parameters of %q: %w", n, err)
	}
	r.schemas[n] = s
	return nil
}

// arguments repairs the argument text of a call to n. Arguments of a
// function the registry does not know are returned as they are, without
// error: the program's own dispatch answers for an unknown name.
func (r *registry) arguments(ctx context.Context, n name, arguments string) (json.RawMessage, error) {
	raw := json.RawMessage(arguments)
	s := r.schemas[n]
	if s == nil {
		return raw, nil
	}
	if report := r.reporter(ctx, n); report != nil {
		o := r.opts.Coerce
		o.OnChange, o.Check = report, true
		s = s.WithOptions(o)
	}
	out, err := s.CoerceJSON(raw)
	if err != nil {
		err = &ArgumentsError{Function: n.String(), Err: err, Feedback: s.Feedback(err)}
		r.fail(ctx, n, err)
	}
	return out, err
}

// cutOff is the error of every call of a turn the output limit cut off.
func cutOff(reason string) error {
	err := toolcall.CutOff(reason)
	return &ArgumentsError{Err: err, Feedback: coerce.Feedback(err)}
}

// Finished returns nil for a choice the model ended itself, and for one
// its output limit cut off (finish_reason "length") an error wrapping
// coerce.ErrTruncated: none of the choice's tool calls may run, not even
// one whose arguments parse, for the arguments may be cut short where the
// text happens to close. Answer each call with Feedback(err), which tells
// the model its call was cut off and asks for a smaller one, and go on.
// Call it before Arguments or Unmarshal.
func (t *ChatTools) Finished(choice openai.ChatCompletionChoice) error {
	if choice.FinishReason == "length" {
		return cutOff("finish_reason: length")
	}
	return nil
}

// Finished is [ChatTools.Finished] for the Responses API: a response
// left incomplete at max_output_tokens cut its calls off.
func (t *ResponseTools) Finished(resp *responses.Response) error {
	if reason := responseCut(resp); reason != "" {
		return cutOff(reason)
	}
	return nil
}

// responseCut says why resp's output was cut off, or "" if it was not.
func responseCut(resp *responses.Response) string {
	if resp != nil && resp.Status == "incomplete" && resp.IncompleteDetails.Reason == "max_output_tokens" {
		return "incomplete: max_output_tokens"
	}
	return ""
}

// An ArgumentsError is the error of a call whose arguments cannot be
// fixed. Its Feedback is the text to send the model as the tool's result
// (openai.ToolMessage), so that it corrects its next call: per failing
// argument its JSON Pointer, the type declared, what was found and a
// valid example (coerce.Schema.Feedback). Err joins one *coerce.Error per
// failure; errors.Is(err, coerce.ErrEnum) and the like see through it, and
// its message is Err's: the function's name is a field, not words.
type ArgumentsError struct {
	Function string // as the call named it; "namespace.function" in a namespace
	Err      error
	Feedback string
}

func (e *ArgumentsError) Error() string { return e.Err.Error() }

func (e *ArgumentsError) Unwrap() error { return e.Err }

// Feedback returns the text for the model of an error of this package:
// an ArgumentsError's Feedback, or for another error, coerce.Feedback of
// it. It returns "" for nil.
func Feedback(err error) string {
	var ae *ArgumentsError
	if errors.As(err, &ae) {
		return ae.Feedback
	}
	return coerce.Feedback(err)
}

// unmarshal repairs the arguments against the function's schema, the one
// the model was shown, and decodes them into v with coerce.Unmarshal, which
// repairs what v's Go type declares beyond the schema (a function the
// registry does not know, or a parameter the schema leaves open). On any
// error nothing is written to v.
func (r *registry) unmarshal(ctx context.Context, n name, arguments string, v any) error {
	raw, err := r.arguments(ctx, n, arguments)
	if err != nil {
		return err
	}
	o := r.opts.Coerce
	o.OnChange = r.reporter(ctx, n)
	if err := o.Unmarshal(raw, v); err != nil {
		err = fmt.Errorf("openaicoerce: arguments of %q: %w", n, err)
		r.fail(ctx, n, err)
		return err
	}
	return nil
}

func (r *registry) reporter(ctx context.Context, n name) func(coerce.Change) {
	return toolcall.ReportChanges(ctx, n.String(), r.opts.Coerce.OnChange, r.opts.OnChange, r.opts.Logger)
}

func (r *registry) fail(ctx context.Context, n name, err error) {
	if r.opts.OnError != nil {
		r.opts.OnError(ctx, n.String(), err)
	}
}

// ChatTools repairs the arguments of Chat Completions tool calls against the
// parameters of the function tools a request declared. It is safe for
// concurrent use.
type ChatTools struct{ r registry }

// NewChatTools compiles the parameters of each function tool in tools, the
// Tools of the openai.ChatCompletionNewParams the model was sent, with
// coerce's default options. See [Options.NewChatTools].
func NewChatTools(tools []openai.ChatCompletionToolUnionParam) (*ChatTools, error) {
	return Options{}.NewChatTools(tools)
}

// NewChatTools compiles the parameters of each function tool in tools, once.
// Custom tools take free text, not JSON, and are left out. It fails if a
// function's parameters are not a schema coerce can read, or a name is
// declared twice; both are mistakes in the program's own tool list, best
// found when it starts.
func (o Options) NewChatTools(tools []openai.ChatCompletionToolUnionParam) (*ChatTools, error) {
	t := &ChatTools{r: registry{opts: o, schemas: make(map[name]*coerce.Schema, len(tools))}}
	var errs []error
	for _, tool := range tools {
		if f := tool.GetFunction(); f != nil {
			if err := t.r.add(name{function: f.Name}, map[string]any(f.Parameters)); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

// Arguments returns the call's Function.Arguments with every argument
// converted to the type the function's parameters declare: JSON text where
// an array or object was declared is parsed, "5" becomes 5 for an integer,
// an object becomes JSON text for a string, and so on, by the rules of
// package coerce. Arguments that already conform keep their bytes; when
// nothing needs converting the text is returned as the model sent it.
//
// The error joins one *coerce.Error per parameter that could not be
// converted; those stay as sent, the others are converted. A call to a
// function the registry does not know is returned as it is, with no error.
// A call to a custom tool is an error: its input is not JSON arguments.
func (t *ChatTools) Arguments(ctx context.Context, call openai.ChatCompletionMessageToolCallUnion) (json.RawMessage, error) {
	n, err := t.chatName(ctx, call)
	if err != nil {
		return nil, err
	}
	return t.r.arguments(ctx, n, call.Function.Arguments)
}

// Unmarshal decodes the call's arguments into v, as json.Unmarshal would,
// once Arguments has repaired them against the function's parameters and
// coerce.Unmarshal against v's Go type. Integers beyond 2^53 land exactly in
// int64, uint64 and json.Number fields. On any error nothing is written to
// v; the text to send the model as the tool's result is [Feedback](err),
// which names each failing argument, the type declared and a valid example.
func (t *ChatTools) Unmarshal(ctx context.Context, call openai.ChatCompletionMessageToolCallUnion, v any) error {
	n, err := t.chatName(ctx, call)
	if err != nil {
		return err
	}
	return t.r.unmarshal(ctx, n, call.Function.Arguments, v)
}

// FunctionArguments is [ChatTools.Arguments] for the function part of a
// call, as the stream accumulator's JustFinishedToolCall gives it (its
// embedded ChatCompletionMessageFunctionToolCallFunction), or
// ChatCompletionMessageFunctionToolCall.Function.
func (t *ChatTools) FunctionArguments(ctx context.Context, f openai.ChatCompletionMessageFunctionToolCallFunction) (json.RawMessage, error) {
	return t.r.arguments(ctx, name{function: f.Name}, f.Arguments)
}

// UnmarshalFunction is [ChatTools.Unmarshal] for the function part of a
// call, as [ChatTools.FunctionArguments] takes it.
func (t *ChatTools) UnmarshalFunction(ctx context.Context, f openai.ChatCompletionMessageFunctionToolCallFunction, v any) error {
	return t.r.unmarshal(ctx, name{function: f.Name}, f.Arguments, v)
}

func (t *ChatTools) chatName(ctx context.Context, call openai.ChatCompletionMessageToolCallUnion) (name, error) {
	// The union's Type is empty for a call built in Go rather than decoded
	// from the API; its Function then says what it is.
	if call.Type != "" && call.Type != "function" {
		n := name{function: call.Custom.Name}
		err := fmt.Errorf("openaicoerce: call %q is a %s tool call, not a function call", call.ID, call.Type)
		t.r.fail(ctx, n, err)
		return n, err
	}
	return name{function: call.Function.Name}, nil
}

// ResponseTools repairs the arguments of Responses API function calls
// against the parameters of the function tools a request declared,
// including those inside namespace tools. It is safe for concurrent use.
type ResponseTools struct{ r registry }

// NewResponseTools compiles the parameters of each function tool in tools,
// the Tools of the responses.ResponseNewParams the model was sent, with
// coerce's default options. See [Options.NewResponseTools].
func NewResponseTools(tools []responses.ToolUnionParam) (*ResponseTools, error) {
	return Options{}.NewResponseTools(tools)
}

// NewResponseTools compiles the parameters of each function tool in tools,
// and of each function inside a namespace tool, once. Other tools (custom,
// built-in, MCP) are left out. It fails if a function's parameters are not
// a schema coerce can read, or a name is declared twice.
func (o Options) NewResponseTools(tools []responses.ToolUnionParam) (*ResponseTools, error) {
	t := &ResponseTools{r: registry{opts: o, schemas: make(map[name]*coerce.Schema, len(tools))}}
	var errs []error
	for _, tool := range tools {
		switch {
		case tool.OfFunction != nil:
			f := tool.OfFunction
			errs = append(errs, t.r.add(name{function: f.Name}, f.Parameters))
		case tool.OfNamespace != nil:
			ns := tool.OfNamespace
			for _, inner := range ns.Tools {
				if f := inner.OfFunction; f != nil {
					errs = append(errs, t.r.add(name{namespace: ns.Name, function: f.Name}, f.Parameters))
				}
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

// Arguments returns the call's Arguments repaired against the parameters of
// the function it names (in its Namespace, if it has one), as
// [ChatTools.Arguments] does.
func (t *ResponseTools) Arguments(ctx context.Context, call responses.ResponseFunctionToolCall) (json.RawMessage, error) {
	return t.r.arguments(ctx, name{namespace: call.Namespace, function: call.Name}, call.Arguments)
}

// Unmarshal decodes the call's repaired arguments into v, as
// [ChatTools.Unmarshal] does.
func (t *ResponseTools) Unmarshal(ctx context.Context, call responses.ResponseFunctionToolCall, v any) error {
	return t.r.unmarshal(ctx, name{namespace: call.Namespace, function: call.Name}, call.Arguments, v)
}
