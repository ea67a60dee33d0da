package fantasycoerce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"

	"charm.land/fantasy"
	"charm.land/fantasy/jsonrepair"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
)

// Options configures the tools and the repair hook this package makes. The
// zero value coerces with coerce's defaults, reports nothing and leaves
// what it cannot fix to fantasy.
type Options struct {
	// Coerce configures the conversions (e.g. StructuredOnly, WrapScalars).
	// Coerce.OnChange, if set, receives the same changes as OnChange,
	// without the call's context and the tool's name.
	Coerce coerce.Options

	// OnChange, if set, receives each repair made to a tool call's
	// arguments (one [coerce.Change] per converted value, with its JSON
	// Pointer path, the kind found, the type declared and the rule
	// applied), with the call's context and the tool's name, for metrics.
	// It is called once the repaired arguments are in the call, before
	// the tool decodes them, and must be safe for concurrent use: fantasy
	// runs tools marked Parallel concurrently. A call that needs no repair
	// does not call it.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// OnError, if set, observes what coercion could not fix: arguments
	// that do not convert (err joins one *coerce.Error per failing value,
	// each with its JSON Pointer path), arguments that are no JSON object
	// even after fantasy's own syntax repair, and input schemas that do
	// not compile. It must be safe for concurrent use.
	//
	// The call itself goes on, with the values that converted converted
	// and the failing ones as the model sent them, so that fantasy and
	// the tool answer it as they would have without coercion: a typed
	// tool (fantasy.NewAgentTool) answers "invalid parameters: ..." to the
	// model, and a call that is no JSON object is marked invalid and
	// answered with fantasy's validation error. A second error format
	// would only confuse the model reading it.
	OnError func(ctx context.Context, tool string, err error)

	// Logger, if set, logs each repair at debug level with the tool's name,
	// as [coerce.LogChanges] does, and each value it could not repair at
	// warn level, with the attributes tool, path, declared, found and rule
	// (the error's sentinel, such as "invalid syntax"). A logger not
	// enabled for debug level costs nothing on calls that need repair.
	Logger *slog.Logger

	// OnPreview, if set, is shown the input of each tool call of a
	// response streamed by a model [Options.WrapModel] wrapped, as it
	// arrives: called after each delta (fantasy.StreamPartTypeToolInputDelta),
	// with the tool's name, the call's ID and p, the input so far
	// (coerce.Partial, read against the input schema the model was
	// offered: the members complete, converted, the one still open as far
	// as it goes, the JSON Pointers of the values open, and Err once the
	// text can no longer be JSON). A preview is for a UI, never a call to
	// run: fantasy runs the tools once the stream has ended, and none of a
	// response cut off. p is valid until the next delta of the call. It
	// is called from the goroutine that reads the stream (the agent's),
	// before the part reaches the agent.
	OnPreview func(ctx context.Context, tool, id string, p coerce.Partial)
}

// WithTools is [fantasy.WithTools] for tools whose calls are coerced, with
// coerce's default options. See [Options.WithTools].
func WithTools(tools ...fantasy.AgentTool) fantasy.AgentOption {
	return Options{}.WithTools(tools...)
}

// WithTools returns an agent option that gives the agent the tools, each
// wrapped by [Options.Wrap], and installs [Options.RepairToolCall] as its
// repair hook (fantasy.WithRepairToolCall), falling back to fantasy's own
// syntax repair. Use it in place of fantasy.WithTools:
//
//	agent := fantasy.NewAgent(model, fantasycoerce.WithTools(search, fetch))
//
// Like fantasy.WithTools it adds to the tools given before; like
// fantasy.WithRepairToolCall it replaces a repair hook given before, and a
// hook given after replaces it. To keep a hook of your own, pass it to
// [Options.RepairToolCall] and give the result to
// fantasy.WithRepairToolCall after this option.
func (o Options) WithTools(tools ...fantasy.AgentTool) fantasy.AgentOption {
	return both(fantasy.WithTools(o.Wrap(tools...)...), fantasy.WithRepairToolCall(o.RepairToolCall(nil)))
}

// both applies two agent options in turn. fantasy.AgentOption is a function
// of a type fantasy does not export, which inference names for us.
func both[F ~func(P), P any](first, second F) F {
	return func(p P) {
		first(p)
		second(p)
	}
}

// Wrap returns the tools with their calls coerced, with coerce's default
// options. See [Options.Wrap].
func Wrap(tools ...fantasy.AgentTool) []fantasy.AgentTool { return Options{}.Wrap(tools...) }

// Wrap returns tools that coerce the arguments of each call to the tool's
// input schema before the tool sees them, then run the tool. The input
// schema is the one fantasy offers the model: an object with the tool's
// Info().Parameters as properties and Info().Required as required; it is
// read and compiled at the tool's first call, once. Info, ProviderOptions
// and SetProviderOptions are the tool's own. A tool already wrapped is
// returned as it is.
//
// Wrap covers every call fantasy hands to the tool, whichever way the agent
// runs (Generate or Stream, tools run in parallel or not). Give the
// wrapped tools to fantasy.WithTools, or return them from a PrepareStep
// function as PrepareStepResult.Tools.
func (o Options) Wrap(tools ...fantasy.AgentTool) []fantasy.AgentTool {
	out := make([]fantasy.AgentTool, len(tools))
	for i, t := range tools {
		if w, ok := t.(*tool); ok {
			out[i] = w
			continue
		}
		out[i] = &tool{AgentTool: t, opts: o}
	}
	return out
}

// Unwrap returns the tool that t wraps, if Wrap made t, and t otherwise.
func Unwrap(t fantasy.AgentTool) fantasy.AgentTool {
	if w, ok := t.(*tool); ok {
		return w.AgentTool
	}
	return t
}

// tool is an AgentTool whose Run coerces the arguments first. Embedding
// keeps Info, ProviderOptions and SetProviderOptions the tool's own.
type tool struct {
	fantasy.AgentTool
	opts Options

	once   sync.Once
	schema *coerce.Schema
	err    error
}

// Run coerces the call's input to the tool's schema and runs the tool with
// it. fantasy has checked the input already (a JSON object, with the
// required keys), but only to that point: the text it hands over is the
// model's, and the tool decodes it itself.
func (t *tool) Run(ctx context.Context, call fantasy.ToolCall) (fantasy.ToolResponse, error) {
	if _, cut := cutOffs.Reason(call.ID, call.Name, call.Input); cut {
		// A call of a response cut off, as a wrapped model saw it
		// (Options.WrapModel): the model hears why, the tool never runs.
		return fantasy.NewTextErrorResponse(coerce.Feedback(cutOffError())), nil
	}
	schema, err := t.compiled()
	if err != nil {
		t.opts.reportError(ctx, call.Name, fmt.Errorf("fantasycoerce: input schema of tool %q: %w", call.Name, err))
		return t.AgentTool.Run(ctx, call)
	}
	call.Input = t.opts.coerceInput(ctx, schema, call.Name, call.Input)
	return t.AgentTool.Run(ctx, call)
}

func (t *tool) compiled() (*coerce.Schema, error) {
	t.once.Do(func() {
		// Changes are reported per call, with the call's context, never by
		// the compiled schema.
		o := t.opts.Coerce
		o.OnChange = nil
		t.schema, t.err = compile(o, t.Info())
	})
	return t.schema, t.err
}

// compile builds the input schema fantasy offers the model for a tool
// (agent.prepareTools: an object of the tool's parameters, with its
// required keys) and compiles it. fantasy then rewrites type arrays as
// anyOf for the providers, which coerce reads alike.
func compile(o coerce.Options, info fantasy.ToolInfo) (*coerce.Schema, error) {
	schema := map[string]any{"type": "object", "properties": generatedMaps(info.Parameters)}
	if info.Parameters == nil {
		schema["properties"] = map[string]any{}
	}
	if len(info.Required) > 0 {
		schema["required"] = info.Required
	}
	source, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	return o.ParseSchema(source)
}

// generatedMaps returns params with each object schema that fantasy's
// schema.Generate made for a Go map (properties holding the single key "*",
// no additionalProperties) rewritten as the schema of a map, with the
// schema under "*" as additionalProperties. fantasy writes a map[string]T
// that way, and the tool decodes every key of it as a T; read as written,
// "*" would be a key of its own, and the values under the real keys would go
// uncoerced. params itself is not modified.
func generatedMaps(params map[string]any) map[string]any {
	out, _ := rewriteProperties(params)
	return out
}

// rewriteProperties returns props with the schema of each property
// rewritten by rewriteMaps, and whether any was; props is copied, not
// modified.
func rewriteProperties(props map[string]any) (map[string]any, bool) {
	var out map[string]any
	for name, p := range props {
		if q, ok := rewriteMaps(p); ok {
			if out == nil {
				out = maps.Clone(props)
			}
			out[name] = q
		}
	}
	if out == nil {
		return props, false
	}
	return out, true
}

// rewriteMaps returns the schema s with its Go-map schemas rewritten (see
// generatedMaps), copied where it differs, and whether any was.
func rewriteMaps(s any) (any, bool) {
	m, ok := s.(map[string]any)
	if !ok {
		return s, false
	}
	var out map[string]any
	set := func(k string, v any) {
		if out == nil {
			out = maps.Clone(m)
		}
		out[k] = v
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if star, ok := props["*"]; ok && len(props) == 1 && m["type"] == "object" && m["additionalProperties"] == nil {
			star, _ = rewriteMaps(star)
			set("additionalProperties", star)
			delete(out, "properties")
		} else if p, ok := rewriteProperties(props); ok {
			set("properties", p)
		}
	}
	if items, ok := rewriteMaps(m["items"]); ok {
		set("items", items)
	}
	if out == nil {
		return s, false
	}
	return out, true
}

// coerceInput returns input coerced to schema, reporting the changes once
// the result is certain and what could not be converted.
func (o Options) coerceInput(ctx context.Context, schema *coerce.Schema, name, input string) string {
	report := toolcall.ReportChanges(ctx, name, o.Coerce.OnChange, o.OnChange, o.Logger)
	var changes []coerce.Change
	if report != nil {
		co := o.Coerce
		co.OnChange = func(ch coerce.Change) { changes = append(changes, ch) }
		schema = schema.WithOptions(co)
	}
	raw := []byte(input)
	out, err := schema.CoerceJSON(raw)
	if err != nil {
		o.reportError(ctx, name, err)
	}
	if len(out) == 0 || bytes.Equal(out, raw) {
		return input
	}
	for _, ch := range changes {
		report(ch)
	}
	return string(out)
}

// RepairToolCall returns a repair hook for fantasy.WithRepairToolCall. See
// the package documentation for when fantasy calls it.
//
// fantasy calls the hook for a tool call whose input is no JSON object, or
// lacks a required key. The hook first asks coerce whether the input is an
// object in another form, as models send it: JSON text encoded once more as
// a JSON string ("{\"q\":\"go\"}" in quotes), or one markdown fence around
// the JSON text. If so, it returns the call with the object as its input,
// its numbers as written. An input cut off (text that ends inside a value
// it began, coerce.ErrTruncated) is refused: neither next nor jsonrepair
// sees it, since closing it would make up arguments the model did not
// write, and fantasy answers the model with its own validation error
// without running the tool. Otherwise the hook hands the call to next, or,
// if next is nil, does what fantasy does without a hook: it repairs the
// JSON syntax with fantasy's jsonrepair package (trailing commas, single
// quotes, comments). fantasy then validates what the hook returns and, if
// that fails too, marks the call invalid with its first validation error,
// and the model reads that error as the tool's result.
//
// The hook leaves the values inside the object alone: the tools that
// [Options.Wrap] makes coerce those, whatever path the call took.
func (o Options) RepairToolCall(next fantasy.RepairToolCallFunction) fantasy.RepairToolCallFunction {
	return func(ctx context.Context, opts fantasy.ToolCallRepairOptions) (*fantasy.ToolCallContent, error) {
		call := opts.OriginalToolCall
		info, ok := offered(opts.AvailableTools, call.ToolName)
		if !ok {
			// Not a tool of this step: nothing to coerce to. fantasy
			// answers "tool not found" whatever the input.
			return fallback(ctx, opts, next)
		}
		input, unwrapped, err := o.unwrapInput(ctx, call.ToolName, call.Input, info.Required)
		if unwrapped {
			call.Input = input
			return &call, nil
		}
		if errors.Is(err, coerce.ErrTruncated) {
			// A call cut off: fantasy's jsonrepair would close it into
			// arguments the model did not write, and the tool would run
			// with them. Refused, fantasy answers the model with its own
			// validation error, and the tool does not run.
			o.reportError(ctx, call.ToolName, err)
			return nil, err
		}
		repaired, repairErr := fallback(ctx, opts, next)
		if err != nil && (repairErr != nil || repaired == nil || !isObject(repaired.Input)) {
			// Neither coerce nor the syntax repair made an object of it:
			// say why coerce could not, and let fantasy answer the model.
			o.reportError(ctx, call.ToolName, err)
		}
		return repaired, repairErr
	}
}

// fallback repairs a call the way fantasy would without this hook: next,
// if given, or else fantasy's jsonrepair, whose result fantasy takes only
// if it differs from the input.
func fallback(ctx context.Context, opts fantasy.ToolCallRepairOptions, next fantasy.RepairToolCallFunction) (*fantasy.ToolCallContent, error) {
	if next != nil {
		return next(ctx, opts)
	}
	call := opts.OriginalToolCall
	repaired, err := jsonrepair.RepairJSON(call.Input)
	if err != nil {
		return nil, err
	}
	if repaired == call.Input {
		return nil, opts.ValidationError // nothing repaired: fantasy reports its own error
	}
	call.Input = repaired
	return &call, nil
}

// offered returns the Info of the named tool among those a step offers.
func offered(tools []fantasy.AgentTool, name string) (fantasy.ToolInfo, bool) {
	for _, t := range tools {
		if info := t.Info(); info.Name == name {
			return info, true
		}
	}
	return fantasy.ToolInfo{}, false
}

// isObject reports whether input is the JSON text of an object, as fantasy
// checks it.
func isObject(input string) bool {
	var obj map[string]any
	return json.Unmarshal([]byte(input), &obj) == nil
}

// objectType is what a tool's input is as a whole: a JSON object.
var objectType = coerce.MustParseType("object")

// unwrapInput returns the JSON object that input holds in another form
// (encoded once more as a JSON string, or in a markdown fence) and true, if
// the object has every required key, so that fantasy will take the call;
// only then is the change reported. The error says why input holds no
// object, if it does not.
func (o Options) unwrapInput(ctx context.Context, name, input string, required []string) (string, bool, error) {
	var change coerce.Change
	co := o.Coerce
	co.UseNumber = true // keep each number's text as the model wrote it
	co.OnChange = func(c coerce.Change) { change = c }
	v, err := co.ToType(input, objectType)
	if err != nil {
		return "", false, err
	}
	obj, ok := v.(map[string]any)
	if !ok || (change.Rule != coerce.DoubleEncoded && change.Rule != coerce.Fenced) {
		// A bare object fantasy has read already: what it lacks is a
		// required key, and keys are not coerce's to invent.
		return "", false, nil
	}
	for _, k := range required {
		if _, ok := obj[k]; !ok {
			return "", false, nil
		}
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return "", false, nil
	}
	if report := toolcall.ReportChanges(ctx, name, o.Coerce.OnChange, o.OnChange, o.Logger); report != nil {
		report(change)
	}
	return string(out), true, nil
}

// reportError hands err to OnError and logs each value that could not be
// repaired at warn level, with the attributes every integration uses
// (package toolcall).
func (o Options) reportError(ctx context.Context, name string, err error) {
	toolcall.Listeners{OnError: o.OnError, Logger: o.Logger}.Rejected(ctx, name, err)
}
