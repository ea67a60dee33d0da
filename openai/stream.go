package openaicoerce

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/coerce-go/coerce"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// A StreamedCall is a function call read from a stream: where the reply
// puts it, as the API keys it, and, once the stream is closed, its
// arguments. [Options.OnPreview] gets one while its arguments arrive,
// without Arguments and Err.
type StreamedCall struct {
	// Choice is the index of the choice the call is in (Chat Completions;
	// 0 for the Responses API).
	Choice int

	// Index is the call's index among its choice's tool calls (Chat
	// Completions: tool_calls[].index), or its output item's output_index
	// (Responses API).
	Index int

	// ID is what the answer to the call names: its id (Chat Completions,
	// openai.ToolMessage) or call_id (Responses API, function_call_output).
	ID string

	// ItemID is the id of the call's output item (Responses API), which
	// its argument deltas name.
	ItemID string

	// Namespace is the namespace tool the function is in, if any
	// (Responses API); Name is the function's name.
	Namespace, Name string

	// Arguments are the call's arguments repaired, as Arguments of the
	// registry returns them for the same text, and Err its error: an
	// *ArgumentsError whose Feedback is the text for the model. Close
	// sets both. A call of a turn the output limit cut off is never
	// decoded: it has no Arguments, and its Err wraps coerce.ErrTruncated.
	Arguments json.RawMessage
	Err       error
}

// A streamed is one call of a stream, its argument text written as it
// comes to a coerce.Stream of the function's parameters.
type streamed struct {
	call     StreamedCall
	resolved bool           // the function's schema has been looked up (it needs the name)
	st       *coerce.Stream // the arguments, for a function with parameters
	schema   *coerce.Schema // st's schema, with the call's reporter
	raw      []byte         // the text, until resolved, and for a function without parameters
	preview  *coerce.Stream // the preview of a call without st (OnPreview only)
	written  int            // the bytes written
}

// calls is what a ChatStream and a ResponseStream share: the calls in the
// order they started, and the registry that decodes them.
type calls struct {
	r      *registry
	ctx    context.Context
	all    []*streamed
	closed []StreamedCall
	done   bool
}

// anyObject previews the arguments of a function the registry has no
// schema for: an object of anything.
var anyObject, _ = coerce.ParseSchema([]byte(`{"type": "object"}`))

func (c *calls) start(call StreamedCall) *streamed {
	s := &streamed{call: call}
	c.all = append(c.all, s)
	return s
}

func (c *calls) name(s *streamed) name {
	return name{namespace: s.call.Namespace, function: s.call.Name}
}

// resolve looks the function up once its name is known, and starts the
// stream of its arguments with the text so far.
func (c *calls) resolve(s *streamed) {
	if s.resolved || s.call.Name == "" {
		return
	}
	s.resolved = true
	n := c.name(s)
	schema := c.r.schemas[n]
	if schema == nil {
		if c.r.opts.OnPreview != nil {
			s.preview = anyObject.Stream()
			s.preview.Write(s.raw)
		}
		return
	}
	if report := c.r.reporter(c.ctx, n); report != nil {
		o := c.r.opts.Coerce
		o.OnChange, o.Check = report, true
		schema = schema.WithOptions(o)
	}
	s.schema, s.st = schema, schema.Stream()
	s.st.Write(s.raw)
	s.raw = nil
}

// write appends a delta to the call's arguments and shows them.
func (c *calls) write(s *streamed, delta string) {
	if delta == "" || c.done {
		return
	}
	s.written += len(delta)
	if !s.resolved {
		c.resolve(s)
	}
	switch {
	case s.st != nil:
		s.st.Write([]byte(delta))
	default:
		s.raw = append(s.raw, delta...)
		if s.preview != nil {
			s.preview.Write([]byte(delta))
		}
	}
	if c.r.opts.OnPreview == nil {
		return
	}
	p := s.preview
	if s.st != nil {
		p = s.st
	}
	if p != nil {
		c.r.opts.OnPreview(c.ctx, s.call, p.Preview())
	}
}

// complete writes what the call's whole text, as a done event gives it,
// holds beyond the deltas written: all of it if no delta came.
func (c *calls) complete(s *streamed, text string) {
	if len(text) > s.written {
		c.write(s, text[s.written:])
	}
}

// close decodes every call, in the order of the reply, unless cut says
// the turn it is in was cut off.
func (c *calls) close(cut func(StreamedCall) string) []StreamedCall {
	if c.done {
		return c.closed
	}
	c.done = true
	slices.SortStableFunc(c.all, func(a, b *streamed) int {
		return cmp.Or(cmp.Compare(a.call.Choice, b.call.Choice), cmp.Compare(a.call.Index, b.call.Index))
	})
	c.closed = make([]StreamedCall, 0, len(c.all))
	for _, s := range c.all {
		call := s.call
		if reason := cut(call); reason != "" {
			// Never decoded: the arguments may be cut short where the
			// text happens to close.
			err := cutOff(reason).(*ArgumentsError)
			err.Function = c.name(s).String()
			call.Err = err
			c.closed = append(c.closed, call)
			continue
		}
		c.resolve(s)
		if s.st == nil {
			// A function without parameters, or one the registry does
			// not know: its text as it came, as Arguments passes it.
			call.Arguments = s.raw
			c.closed = append(c.closed, call)
			continue
		}
		out, err := s.st.Close()
		if err != nil {
			n := c.name(s)
			err = &ArgumentsError{Function: n.String(), Err: err, Feedback: s.schema.Feedback(err)}
			c.r.fail(c.ctx, n, err)
		}
		call.Arguments, call.Err = out, err
		c.closed = append(c.closed, call)
	}
	return c.closed
}

// unmarshal decodes a closed call's arguments into v, as the registry's
// Unmarshal does once they are repaired.
func (c *calls) unmarshal(call StreamedCall, v any) error {
	if call.Err != nil {
		return call.Err
	}
	n := name{namespace: call.Namespace, function: call.Name}
	o := c.r.opts.Coerce
	o.OnChange = c.r.reporter(c.ctx, n)
	if err := o.Unmarshal(call.Arguments, v); err != nil {
		err = fmt.Errorf("openaicoerce: arguments of %q: %w", n, err)
		c.r.fail(c.ctx, n, err)
		return err
	}
	return nil
}

// A ChatStream reads the function calls of one streamed chat completion
// (client.Chat.Completions.NewStreaming) as their arguments arrive: one
// coerce.Stream per call, keyed as the API keys them, by choice and
// tool_calls[].index. Add each chunk to it, beside the SDK's
// ChatCompletionAccumulator (which keeps the message to send back); each
// delta is shown to [Options.OnPreview]. Close, once the stream has ended,
// decodes every call, strictly: a choice the output limit cut off
// (finish_reason "length") has none of its calls decoded, and the others
// get what [ChatTools.Arguments] gives for the same text, errors
// included. Nothing is decoded, and no call may run, before Close: the
// finish reason comes last.
//
// A ChatStream is for one goroutine and one reply; the registry that made
// it serves any number.
type ChatStream struct {
	calls
	byKey  map[[2]int64]*streamed
	finish map[int64]string // each choice's finish_reason
}

// Stream returns a ChatStream for one streamed reply to a request that
// declared the registry's tools. ctx is given to the listeners of Options.
func (t *ChatTools) Stream(ctx context.Context) *ChatStream {
	return &ChatStream{calls: calls{r: &t.r, ctx: ctx}, byKey: map[[2]int64]*streamed{}, finish: map[int64]string{}}
}

// Add reads one chunk of the stream: the tool call deltas of each choice,
// and its finish reason. Chunks are added in the order they came; a
// chunk added after Close is ignored.
func (s *ChatStream) Add(chunk openai.ChatCompletionChunk) {
	if s.done {
		return
	}
	for _, choice := range chunk.Choices {
		for _, d := range choice.Delta.ToolCalls {
			index := d.Index
			if index == -1 {
				index = 0 // as the SDK's accumulator reads a provider's single call
			}
			key := [2]int64{choice.Index, index}
			c := s.byKey[key]
			if c == nil {
				c = s.start(StreamedCall{Choice: int(choice.Index), Index: int(index)})
				s.byKey[key] = c
			}
			if c.call.ID == "" {
				c.call.ID = d.ID
			}
			if !c.resolved {
				c.call.Name += d.Function.Name
			}
			s.write(c, d.Function.Arguments)
		}
		if choice.FinishReason != "" {
			s.finish[choice.Index] = choice.FinishReason
		}
	}
}

// Close returns every function call of the reply, in the order of its
// choices and their tool calls, each with its repaired Arguments or its
// Err. Each call of a choice whose finish_reason is "length" has Err, as
// [ChatTools.Finished] gives it, and no Arguments: answer it with
// [Feedback](call.Err). Call it once the stream has ended; it may be
// called again, with the same answer. A choice whose finish reason never
// came (a stream broken off) has its calls decoded, as Finished allows
// them: text left open fails with coerce.ErrTruncated.
func (s *ChatStream) Close() []StreamedCall {
	return s.close(func(call StreamedCall) string {
		if s.finish[int64(call.Choice)] == "length" {
			return "finish_reason: length"
		}
		return ""
	})
}

// Unmarshal decodes a call Close returned into v, as [ChatTools.Unmarshal]
// does: the repaired arguments, then coerce.Unmarshal against v's Go type.
// It returns call.Err, if set, and writes nothing to v on any error.
func (s *ChatStream) Unmarshal(call StreamedCall, v any) error { return s.unmarshal(call, v) }

// A ResponseStream is [ChatStream] for a streamed Responses API reply
// (client.Responses.NewStreaming): one coerce.Stream per function call
// item, keyed by its item id (response.output_item.added, then
// response.function_call_arguments.delta and .done). Close decodes the
// calls once the response has ended; a response left incomplete at
// max_output_tokens (response.incomplete) has none decoded.
type ResponseStream struct {
	calls
	byItem   map[string]*streamed
	response *responses.Response // the last response.completed, .incomplete or .failed
}

// Stream returns a ResponseStream for one streamed response to a request
// that declared the registry's tools.
func (t *ResponseTools) Stream(ctx context.Context) *ResponseStream {
	return &ResponseStream{calls: calls{r: &t.r, ctx: ctx}, byItem: map[string]*streamed{}}
}

// Add reads one event of the stream. The events of function call items
// and the response's last one count; others (text, reasoning, custom and
// MCP calls) are ignored, and so is an event added after Close.
func (s *ResponseStream) Add(event responses.ResponseStreamEventUnion) {
	if s.done {
		return
	}
	switch event.Type {
	case "response.output_item.added", "response.output_item.done":
		item := event.Item
		if item.Type != "function_call" {
			return
		}
		c := s.item(item.ID, event.OutputIndex)
		if c.call.ID == "" {
			c.call.ID = item.CallID
		}
		if !c.resolved {
			c.call.Name, c.call.Namespace = cmp.Or(c.call.Name, item.Name), cmp.Or(c.call.Namespace, item.Namespace)
		}
		s.complete(c, item.Arguments.OfString)
	case "response.function_call_arguments.delta":
		s.write(s.item(event.ItemID, event.OutputIndex), event.Delta)
	case "response.function_call_arguments.done":
		s.complete(s.item(event.ItemID, event.OutputIndex), event.Arguments)
	case "response.completed", "response.incomplete", "response.failed":
		r := event.Response
		s.response = &r
	}
}

// item returns the call of an output item, started at its first event.
func (s *ResponseStream) item(id string, index int64) *streamed {
	c := s.byItem[id]
	if c == nil {
		c = s.start(StreamedCall{Index: int(index), ItemID: id})
		s.byItem[id] = c
	}
	return c
}

// Close is [ChatStream.Close] for the Responses API: each call of a
// response left incomplete at max_output_tokens has Err, as
// [ResponseTools.Finished] gives it, and no Arguments.
func (s *ResponseStream) Close() []StreamedCall {
	reason := responseCut(s.response)
	return s.close(func(StreamedCall) string { return reason })
}

// Unmarshal is [ChatStream.Unmarshal] for the Responses API.
func (s *ResponseStream) Unmarshal(call StreamedCall, v any) error { return s.unmarshal(call, v) }
