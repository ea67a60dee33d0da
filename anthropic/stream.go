package anthropiccoerce

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/coerce-go/coerce"
)

// A StreamedCall is a tool_use block read from a stream: where the message
// puts it and, once the stream is closed, its input. [Options.OnPreview]
// gets one while its input arrives, without Input and Err.
type StreamedCall struct {
	// Index is the block's index in the message's content, the key of its
	// input_json_delta events.
	Index int

	// ID is the block's id, which the tool_result answering it names;
	// Name is the tool's name.
	ID, Name string

	// Input is the block's input repaired, as Input of the registry
	// returns it for the same text, and Err its error: an *InputError
	// whose Feedback is the text for the model. Close sets both. A block
	// of a message the output limit cut off is never decoded: it has no
	// Input, and its Err wraps coerce.ErrTruncated.
	Input json.RawMessage
	Err   error
}

// A streamed is one tool_use block of a stream, its input written as it
// comes to a coerce.Stream of the tool's input schema.
type streamed struct {
	call    StreamedCall
	start   string         // the input content_block_start gave ({}), the input if no delta comes
	st      *coerce.Stream // the input, for a tool the registry has a schema for
	schema  *coerce.Schema // st's schema, with the call's reporter
	raw     []byte         // the input of a tool the registry does not know
	preview *coerce.Stream // the preview of a call without st (OnPreview only)
	written bool
}

// anyObject previews the input of a tool the registry has no schema for:
// an object of anything.
var anyObject, _ = coerce.ParseSchema([]byte(`{"type": "object"}`))

// blocks is what a Stream and a BetaStream share.
type blocks struct {
	r      *registry
	ctx    context.Context
	all    []*streamed
	open   map[int64]*streamed
	stop   string // the message's stop_reason
	closed []StreamedCall
	done   bool
}

// event is what counts of a stream event, the same in both APIs.
type event struct {
	typ, blockType, id, name, input, deltaType, partial, stopReason string
	index                                                           int64
}

func (b *blocks) add(e event) {
	if b.done {
		return
	}
	switch e.typ {
	case "content_block_start":
		if e.blockType != "tool_use" {
			return // text, thinking, and the tools the API runs itself
		}
		s := &streamed{call: StreamedCall{Index: int(e.index), ID: e.id, Name: e.name}, start: e.input}
		if c := b.r.tools[e.name]; c != nil && c.schema != nil {
			s.schema = c.schema
			if report := c.reporter(b.ctx); report != nil {
				o := c.opts.Coerce
				o.OnChange, o.Check = report, true
				s.schema = s.schema.WithOptions(o)
			}
			s.st = s.schema.Stream()
		} else if b.r.opts.OnPreview != nil {
			s.preview = anyObject.Stream()
		}
		b.all = append(b.all, s)
		b.open[e.index] = s
	case "content_block_delta":
		s := b.open[e.index]
		if s == nil || e.deltaType != "input_json_delta" || e.partial == "" {
			return
		}
		b.write(s, e.partial)
	case "message_delta":
		if e.stopReason != "" {
			b.stop = e.stopReason
		}
	}
}

func (b *blocks) write(s *streamed, delta string) {
	s.written = true
	p := s.preview
	if s.st != nil {
		s.st.Write([]byte(delta))
		p = s.st
	} else {
		s.raw = append(s.raw, delta...)
		if p != nil {
			p.Write([]byte(delta))
		}
	}
	if b.r.opts.OnPreview != nil && p != nil {
		b.r.opts.OnPreview(b.ctx, s.call, p.Preview())
	}
}

func (b *blocks) close() []StreamedCall {
	if b.done {
		return b.closed
	}
	b.done = true
	slices.SortStableFunc(b.all, func(x, y *streamed) int { return cmp.Compare(x.call.Index, y.call.Index) })
	reason := stopCut(b.stop)
	b.closed = make([]StreamedCall, 0, len(b.all))
	for _, s := range b.all {
		call := s.call
		if reason != "" {
			// Never decoded: the input may be cut short where the text
			// happens to close.
			err := cutOff(reason).(*InputError)
			err.Tool = call.Name
			call.Err = err
			b.closed = append(b.closed, call)
			continue
		}
		if !s.written {
			// No delta: the input content_block_start gave, as the SDK's
			// Accumulate keeps it.
			if s.st != nil {
				s.st.Write([]byte(s.start))
			} else {
				s.raw = []byte(s.start)
			}
		}
		if s.st == nil {
			// A tool the registry does not know: its input as it came,
			// as Input passes it.
			call.Input = s.raw
			b.closed = append(b.closed, call)
			continue
		}
		out, err := s.st.Close()
		if err != nil {
			err = &InputError{Tool: call.Name, Err: err, Feedback: s.schema.Feedback(err)}
			b.r.fail(b.ctx, call.Name, err)
		}
		call.Input, call.Err = out, err
		b.closed = append(b.closed, call)
	}
	return b.closed
}

func (b *blocks) unmarshal(call StreamedCall, v any) error {
	if call.Err != nil {
		return call.Err
	}
	c := b.r.tools[call.Name]
	if c == nil {
		c = &coercer{opts: b.r.opts, tool: call.Name}
	}
	o := c.opts.Coerce
	o.OnChange = c.reporter(b.ctx)
	if err := o.Unmarshal(call.Input, v); err != nil {
		err = fmt.Errorf("anthropiccoerce: input of %q: %w", call.Name, err)
		c.fail(b.ctx, err)
		return err
	}
	return nil
}

// A Stream reads the tool_use blocks of one streamed message
// (client.Messages.NewStreaming) as their input arrives: one coerce.Stream
// per block, keyed by its index, from content_block_start to the
// input_json_delta events of content_block_delta. Add each event to it,
// beside the SDK's Message.Accumulate (which keeps the message to send
// back); each delta is shown to [Options.OnPreview]. Close, once the
// stream has ended, decodes every block, strictly: a message the output
// limit cut off (stop_reason "max_tokens" or
// "model_context_window_exceeded", in message_delta) has none decoded, and
// the others get what [Tools.Input] gives for the same text, errors
// included. Nothing is decoded, and no tool may run, before Close: the
// stop reason comes after the last block.
//
// A Stream is for one goroutine and one message; the registry that made it
// serves any number.
type Stream struct{ blocks }

// Stream returns a Stream for one streamed message answering a request
// that declared the registry's tools. ctx is given to the listeners of
// Options.
func (t *Tools) Stream(ctx context.Context) *Stream {
	return &Stream{blocks{r: &t.registry, ctx: ctx, open: map[int64]*streamed{}}}
}

// Add reads one event of the stream. The start of a tool_use block, its
// input_json_delta events and message_delta's stop reason count; other
// events are ignored, and so is an event added after Close.
func (s *Stream) Add(e anthropic.MessageStreamEventUnion) {
	s.add(event{
		typ: e.Type, index: e.Index,
		blockType: e.ContentBlock.Type, id: e.ContentBlock.ID, name: e.ContentBlock.Name, input: e.ContentBlock.JSON.Input.Raw(),
		deltaType: e.Delta.Type, partial: e.Delta.PartialJSON, stopReason: string(e.Delta.StopReason),
	})
}

// Close returns every tool_use block of the message, in the order of its
// content, each with its repaired Input or its Err. Each block of a
// message the output limit cut off has Err, as [Tools.Finished] gives it,
// and no Input: answer it with a tool_result of [Feedback](call.Err), with
// is_error set. Call it once the stream has ended; it may be called again,
// with the same answer. A message whose stop reason never came (a stream
// broken off) has its blocks decoded, as Finished allows them: input left
// open fails with coerce.ErrTruncated.
func (s *Stream) Close() []StreamedCall { return s.close() }

// Unmarshal decodes a block Close returned into v, as [Tools.Unmarshal]
// does: the repaired input, then coerce.Unmarshal against v's Go type. It
// returns call.Err, if set, and writes nothing to v on any error.
func (s *Stream) Unmarshal(call StreamedCall, v any) error { return s.unmarshal(call, v) }

// A BetaStream is [Stream] for the beta Messages API
// (client.Beta.Messages.NewStreaming).
type BetaStream struct{ blocks }

// Stream returns a BetaStream for one streamed beta message.
func (t *BetaTools) Stream(ctx context.Context) *BetaStream {
	return &BetaStream{blocks{r: &t.registry, ctx: ctx, open: map[int64]*streamed{}}}
}

// Add is [Stream.Add] for a beta stream event.
func (s *BetaStream) Add(e anthropic.BetaRawMessageStreamEventUnion) {
	s.add(event{
		typ: e.Type, index: e.Index,
		blockType: e.ContentBlock.Type, id: e.ContentBlock.ID, name: e.ContentBlock.Name, input: e.ContentBlock.JSON.Input.Raw(),
		deltaType: e.Delta.Type, partial: e.Delta.PartialJSON, stopReason: string(e.Delta.StopReason),
	})
}

// Close is [Stream.Close]; the cut-off error is [BetaTools.Finished]'s.
func (s *BetaStream) Close() []StreamedCall { return s.close() }

// Unmarshal is [Stream.Unmarshal] for a beta stream.
func (s *BetaStream) Unmarshal(call StreamedCall, v any) error { return s.unmarshal(call, v) }
