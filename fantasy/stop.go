package fantasycoerce

import (
	"context"
	"slices"

	"charm.land/fantasy"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
)

// WrapModel is [Options.WrapModel] with the zero Options.
func WrapModel(m fantasy.LanguageModel) fantasy.LanguageModel { return Options{}.WrapModel(m) }

// WrapModel returns m watching the finish reason of its responses, so that
// no tool call of a response its output limit cut off
// (fantasy.FinishReasonLength) runs: not even one whose input parses, for
// it may be cut short where the text happens to close. Give it to
// fantasy.NewAgent in place of m, beside [Options.WithTools]:
//
//	agent := fantasy.NewAgent(fantasycoerce.WrapModel(model), fantasycoerce.WithTools(search))
//
// Generate marks each tool call of such a response invalid, with the
// feedback of coerce.ErrTruncated as its error, so that fantasy answers it
// with that text and runs no tool, wrapped or not. Stream cannot mark a
// call (fantasy's stream parts carry no such flag): it marks the calls, by
// ID, for the tools [Options.Wrap] makes, which answer such a call with the
// same feedback instead of running it; a tool that is not wrapped runs. A
// call whose input fantasy's own check refuses first (text that is not a
// JSON object, a required key missing) is answered with fantasy's error,
// and does not run either. OnError and Logger hear each call of such a
// response.
//
// fantasy ends the run after a response cut off (it goes on only after
// fantasy.FinishReasonToolCalls): the feedback is in the step's messages,
// and reaches the model when the conversation goes on.
//
// In the other direction, each tool call in the prompt m is sent whose input
// is not JSON (a call cut off, replayed from the history) is sent with
// coerce.ReplayArgs of it instead, {} for text cut off, so that the provider
// takes the request; the prompt itself is not modified.
//
// With [Options.OnPreview] set, Stream also shows it the input of each tool
// call as its deltas arrive, read against the input schema the call offered
// the model (compiled once per tool and schema): the preview a UI shows
// while fantasy waits for the end of the stream to run the tools.
//
// A model WrapModel returned is wrapped again with o instead of twice; a nil
// m is returned as it is.
func (o Options) WrapModel(m fantasy.LanguageModel) fantasy.LanguageModel {
	if m == nil {
		return nil
	}
	if w, ok := m.(*languageModel); ok {
		m = w.LanguageModel
	}
	return &languageModel{LanguageModel: m, opts: o}
}

// languageModel is a LanguageModel whose responses are watched. Embedding
// keeps GenerateObject, StreamObject, Provider and Model the model's own.
type languageModel struct {
	fantasy.LanguageModel
	opts    Options
	schemas schemas // the input schemas of the tools previewed (OnPreview)
}

func (m *languageModel) Generate(ctx context.Context, call fantasy.Call) (*fantasy.Response, error) {
	call.Prompt = replayPrompt(call.Prompt)
	resp, err := m.LanguageModel.Generate(ctx, call)
	if err != nil || resp == nil || resp.FinishReason != fantasy.FinishReasonLength {
		return resp, err
	}
	var content []fantasy.Content
	for i, c := range resp.Content {
		tc, ok := fantasy.AsContentType[fantasy.ToolCallContent](c)
		if !ok || tc.ProviderExecuted {
			continue
		}
		if content == nil {
			content = slices.Clone(resp.Content)
		}
		e := m.cutOff(ctx, tc.ToolCallID, tc.ToolName, tc.Input)
		tc.Invalid = true
		tc.ValidationError = e
		content[i] = tc
	}
	if content == nil {
		return resp, nil
	}
	out := *resp
	out.Content = content
	return &out, nil
}

func (m *languageModel) Stream(ctx context.Context, call fantasy.Call) (fantasy.StreamResponse, error) {
	call.Prompt = replayPrompt(call.Prompt)
	stream, err := m.LanguageModel.Stream(ctx, call)
	if err != nil || stream == nil {
		return stream, err
	}
	var open previews
	if m.opts.OnPreview != nil {
		open = previews{}
	}
	return func(yield func(fantasy.StreamPart) bool) {
		var calls []fantasy.StreamPart
		for part := range stream {
			if open != nil {
				m.preview(ctx, &call, open, &part)
			}
			switch part.Type {
			case fantasy.StreamPartTypeToolCall:
				if !part.ProviderExecuted {
					calls = append(calls, part)
				}
			case fantasy.StreamPartTypeFinish:
				// fantasy runs the tools once the stream has ended:
				// the calls are marked before it can.
				if part.FinishReason == fantasy.FinishReasonLength {
					for _, c := range calls {
						m.cutOff(ctx, c.ID, c.ToolCallName, c.ToolCallInput)
					}
				}
				calls = nil
			}
			if !yield(part) {
				return
			}
		}
	}, nil
}

// cutOff marks one call of a response cut off, reports it, and returns
// the error that refuses it.
func (m *languageModel) cutOff(ctx context.Context, id, name, input string) error {
	cutOffs.Add(id, name, input, "length")
	err := cutOffError()
	m.opts.reportError(ctx, name, err)
	return &refusal{err: err, feedback: coerce.Feedback(err)}
}

func cutOffError() error { return toolcall.CutOff("finish reason: length") }

// A refusal is the error of a call of a response cut off: fantasy sends
// the model an invalid call's error as its text, so its text is the
// feedback; it wraps coerce.ErrTruncated.
type refusal struct {
	err      error
	feedback string
}

func (r *refusal) Error() string { return r.feedback }

func (r *refusal) Unwrap() error { return r.err }

// replayPrompt returns prompt with the input of each tool call that is not
// JSON replaced by coerce.ReplayArgs of it, copying only the messages it
// changes.
func replayPrompt(prompt fantasy.Prompt) fantasy.Prompt {
	var out fantasy.Prompt
	for i, msg := range prompt {
		var parts []fantasy.MessagePart
		for j, p := range msg.Content {
			tc, ok := fantasy.AsMessagePart[fantasy.ToolCallPart](p)
			if !ok || tc.ProviderExecuted {
				continue
			}
			input, changed := coerce.ReplayArgs([]byte(tc.Input))
			if !changed {
				continue
			}
			if parts == nil {
				parts = slices.Clone(msg.Content)
			}
			tc.Input = string(input)
			parts[j] = tc
		}
		if parts == nil {
			continue
		}
		if out == nil {
			out = slices.Clone(prompt)
		}
		out[i].Content = parts
	}
	if out == nil {
		return prompt
	}
	return out
}

// cutOffs holds the tool calls of the responses a wrapped model saw cut
// off, for the wrapped tools: the model and the tools are given to
// fantasy apart, and a tool learns of its call only its ID, name and
// input.
var cutOffs = &toolcall.CutOffCalls{}
