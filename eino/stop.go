package einocoerce

import (
	"context"
	"reflect"
	"slices"
	"strings"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
)

// WrapModel is [Options.WrapModel] with the zero Options.
func WrapModel(m model.ToolCallingChatModel) model.ToolCallingChatModel {
	return Options{}.WrapModel(m)
}

// WrapModel returns m watching the stop reasons of its replies, so that no
// tool call of a reply its output limit cut off runs: not even one whose
// arguments parse, for they may be cut short where the text happens to
// close. Give it to the agent or graph in place of m, beside [Install]:
//
//	conf := react.AgentConfig{ToolCallingModel: einocoerce.WrapModel(chatModel), ToolsConfig: tools}
//	einocoerce.Install(&conf.ToolsConfig)
//
// A reply whose ResponseMeta.FinishReason is a length reason ("length",
// "max_tokens", "max_output_tokens" or "model_context_window_exceeded",
// in any case, as eino-ext's models report the providers' own) marks each
// of its tool calls, by ID (by name and arguments, for a call without
// one), for the tools [Options.Wrap] makes: such a call does not reach the
// tool, and its output, which the ToolsNode hands back to the model, is the
// feedback of coerce.ErrTruncated, which asks for a smaller call; the
// agent's loop goes on. KeepSDKErrors does not change this. OnError and
// Logger hear each call so refused, when the reply arrives. Tools that are
// not wrapped run as before.
//
// In the other direction, each tool call in the messages m is asked to
// answer whose arguments are not JSON (a call cut off, replayed from the
// history) is sent with coerce.ReplayArgs of them instead, {} for text cut
// off, so that the provider takes the request; the messages themselves are
// not modified.
//
// The wrapper reports m's type name and callback behavior, so that eino's
// callbacks run and label it as they did m; WithTools returns the model
// WithTools gives, wrapped. A model WrapModel returned is wrapped again
// with o instead of twice. A nil m is returned as it is.
func (o Options) WrapModel(m model.ToolCallingChatModel) model.ToolCallingChatModel {
	if m == nil {
		return nil
	}
	if w, ok := m.(*chatModel); ok {
		m = w.inner
	}
	return &chatModel{inner: m, opts: o}
}

type chatModel struct {
	inner model.ToolCallingChatModel
	opts  Options
}

func (m *chatModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	out, err := m.inner.Generate(ctx, replayHistory(input), opts...)
	if err == nil && out != nil {
		m.watch(ctx, out)
	}
	return out, err
}

// Stream watches the chunks as they are read: the finish reason comes
// with the last of them, after every tool call's deltas, and the
// ToolsNode receives the calls only once the stream has been read.
func (m *chatModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	sr, err := m.inner.Stream(ctx, replayHistory(input), opts...)
	if err != nil || sr == nil {
		return sr, err
	}
	var chunks []*schema.Message
	watched := false
	return schema.StreamReaderWithConvert(sr, func(c *schema.Message) (*schema.Message, error) {
		if c == nil || watched {
			return c, nil
		}
		chunks = append(chunks, c)
		if c.ResponseMeta != nil && lengthReason(c.ResponseMeta.FinishReason) {
			watched = true
			if msg, err := schema.ConcatMessages(chunks); err == nil {
				m.watch(ctx, msg)
			}
			chunks = nil
		}
		return c, nil
	}), nil
}

func (m *chatModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	inner, err := m.inner.WithTools(tools)
	if err != nil {
		return nil, err
	}
	return &chatModel{inner: inner, opts: m.opts}, nil
}

// GetType returns the wrapped model's type name, as the tool wrapper does.
func (m *chatModel) GetType() string {
	if typ, ok := components.GetType(m.inner); ok {
		return typ
	}
	rt := reflect.TypeOf(m.inner)
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	return rt.Name()
}

// IsCallbacksEnabled reports the wrapped model's answer, so that its
// callbacks run once, as they did.
func (m *chatModel) IsCallbacksEnabled() bool { return components.IsCallbacksEnabled(m.inner) }

// watch marks the tool calls of a reply its output limit cut off.
func (m *chatModel) watch(ctx context.Context, msg *schema.Message) {
	if msg.ResponseMeta == nil || !lengthReason(msg.ResponseMeta.FinishReason) || len(msg.ToolCalls) == 0 {
		return
	}
	err := cutOffError(msg.ResponseMeta.FinishReason)
	l := toolcall.Listeners{OnError: m.opts.OnError, Logger: m.opts.Logger}
	for _, tc := range msg.ToolCalls {
		cutOffs.Add(tc.ID, tc.Function.Name, tc.Function.Arguments, msg.ResponseMeta.FinishReason)
		l.Rejected(ctx, tc.Function.Name, err)
	}
}

// lengthReason reports whether a finish reason says the output limit cut
// the reply off, in the words of the providers eino-ext's models pass on:
// OpenAI's and most others' "length", Anthropic's "max_tokens" and
// "model_context_window_exceeded", Gemini's "MAX_TOKENS", the Responses
// API's "max_output_tokens".
func lengthReason(reason string) bool {
	switch strings.ToLower(reason) {
	case "length", "max_tokens", "max_output_tokens", "model_context_window_exceeded":
		return true
	}
	return false
}

func cutOffError(reason string) error { return toolcall.CutOff("finish reason: " + reason) }

// replayHistory returns input with the arguments of each tool call that
// are not JSON replaced by coerce.ReplayArgs of them, copying only the
// messages it changes.
func replayHistory(input []*schema.Message) []*schema.Message {
	var out []*schema.Message
	for i, msg := range input {
		if msg == nil {
			continue
		}
		var calls []schema.ToolCall
		for j, tc := range msg.ToolCalls {
			args, changed := coerce.ReplayArgs([]byte(tc.Function.Arguments))
			if !changed {
				continue
			}
			if calls == nil {
				calls = slices.Clone(msg.ToolCalls)
			}
			calls[j].Function.Arguments = string(args)
		}
		if calls == nil {
			continue
		}
		if out == nil {
			out = slices.Clone(input)
		}
		copied := *msg
		copied.ToolCalls = calls
		out[i] = &copied
	}
	if out == nil {
		return input
	}
	return out
}

// cutOffs holds the tool calls of the replies a wrapped model saw cut off,
// for the wrapped tools: the model and the tools are given to eino apart,
// and a tool learns of its call only its ID (compose.GetToolCallID), its
// tool's name and its arguments.
var cutOffs = &toolcall.CutOffCalls{}

// cutOffFeedback returns the feedback that refuses a call of a reply cut
// off, or "" for any other call.
func cutOffFeedback(id, name, args string) string {
	reason, ok := cutOffs.Reason(id, name, args)
	if !ok {
		return ""
	}
	return coerce.Feedback(cutOffError(reason))
}
