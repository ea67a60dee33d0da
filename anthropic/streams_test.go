package anthropiccoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/anthropic"
)

// The streams are read by the SDK's own streaming client from an httptest
// server on the loopback interface that sends a body in the API's wire
// format (server-sent events, as the API sends them):
//
//   - testdata/message_tool_use_stream.txt: a text block, then two
//     tool_use blocks of search_messages (the first the input of
//     message_tool_use.json), each started with input {}, an empty
//     input_json_delta, and its input in deltas of a few tokens, as the
//     API splits it; stop_reason "tool_use";
//   - testdata/message_max_tokens_stream.txt: a reply cut off by max_tokens
//     inside its tool_use input.

// sse is a body of server-sent events: each event's name and data.
type sse []struct{ event, data string }

func readSSE(t testing.TB, file string) sse {
	t.Helper()
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out sse
	for _, block := range strings.Split(strings.TrimSpace(string(body)), "\n\n") {
		var e struct{ event, data string }
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				e.event = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				e.data = v
			}
		}
		out = append(out, e)
	}
	return out
}

func (s sse) bytes() []byte {
	var b bytes.Buffer
	for _, e := range s {
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", e.event, e.data)
	}
	return b.Bytes()
}

// rewrite returns the events with each one's data (decoded, numbers kept)
// replaced by what f returns for it: none, itself or several.
func (s sse) rewrite(t testing.TB, f func(m map[string]any) []map[string]any) sse {
	t.Helper()
	var out sse
	for _, e := range s {
		var m map[string]any
		d := json.NewDecoder(strings.NewReader(e.data))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		for _, n := range f(m) {
			data, err := json.Marshal(n)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, struct{ event, data string }{e.event, string(data)})
		}
	}
	return out
}

// resplit returns the stream with each tool_use block's input in the
// pieces split makes of its whole text, in place of the recorded deltas.
func (s sse) resplit(t testing.TB, split func(string) []string) sse {
	whole := map[string]string{}
	s.rewrite(t, func(m map[string]any) []map[string]any {
		if d, ok := m["delta"].(map[string]any); ok && d["type"] == "input_json_delta" {
			whole[fmt.Sprint(m["index"])] += d["partial_json"].(string)
		}
		return nil
	})
	return s.rewrite(t, func(m map[string]any) []map[string]any {
		d, ok := m["delta"].(map[string]any)
		if !ok || d["type"] != "input_json_delta" {
			return []map[string]any{m}
		}
		index := fmt.Sprint(m["index"])
		input, ok := whole[index]
		if !ok {
			return nil
		}
		delete(whole, index)
		var out []map[string]any
		for _, piece := range split(input) {
			out = append(out, map[string]any{"type": "content_block_delta", "index": m["index"], "delta": map[string]any{"type": "input_json_delta", "partial_json": piece}})
		}
		return out
	})
}

func bytewise(s string) []string {
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i : i+1]
	}
	return out
}

func whole(s string) []string { return []string{s} }

// stopReason returns the stream with its stop_reason replaced.
func (s sse) stopReason(t testing.TB, reason string) sse {
	return s.rewrite(t, func(m map[string]any) []map[string]any {
		if m["type"] == "message_delta" {
			m["delta"].(map[string]any)["stop_reason"] = reason
		}
		return []map[string]any{m}
	})
}

func serveStream(t testing.TB, body []byte) anthropic.Client {
	t.Helper()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	t.Cleanup(server.Close)
	return anthropic.NewClient(option.WithBaseURL(server.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// A seen is one preview, as OnPreview was shown it: Args as JSON text
// (a Partial is valid only until the next delta).
type seen struct {
	call anthropiccoerce.StreamedCall
	args string
	open []string
	err  error
}

type listeners struct {
	mu       sync.Mutex
	previews []seen
	changes  []string
	errs     []error
}

func (l *listeners) options() anthropiccoerce.Options {
	return anthropiccoerce.Options{
		OnPreview: func(_ context.Context, call anthropiccoerce.StreamedCall, p coerce.Partial) {
			args, err := json.Marshal(p.Args)
			if err != nil {
				panic(err)
			}
			l.mu.Lock()
			l.previews = append(l.previews, seen{call, string(args), append([]string(nil), p.Open...), p.Err})
			l.mu.Unlock()
		},
		OnChange: func(_ context.Context, tool string, c coerce.Change) {
			l.mu.Lock()
			l.changes = append(l.changes, tool+" "+c.Path+" "+c.Rule.String())
			l.mu.Unlock()
		},
		OnError: func(_ context.Context, _ string, err error) {
			l.mu.Lock()
			l.errs = append(l.errs, err)
			l.mu.Unlock()
		},
	}
}

func (l *listeners) of(id string) []seen {
	var out []seen
	for _, p := range l.previews {
		if p.call.ID == id {
			out = append(out, p)
		}
	}
	return out
}

// streamMessage streams body through the SDK's client to a Stream of a
// registry made with o, and to Message.Accumulate; it returns the stream,
// the message gathered and its tool_use blocks as the union holds them.
func streamMessage(t testing.TB, o anthropiccoerce.Options, body []byte) (*anthropiccoerce.Stream, anthropic.Message, []anthropic.ToolUseBlock, *anthropiccoerce.Tools) {
	t.Helper()
	params := anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Find last week's deploy messages in #general and #ops."))},
		Tools:     []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}},
	}
	tools, err := o.NewTools(params.Tools)
	if err != nil {
		t.Fatal(err)
	}
	client := serveStream(t, body)
	s := client.Messages.NewStreaming(context.Background(), params)
	calls := tools.Stream(context.Background())
	var msg anthropic.Message
	for s.Next() {
		event := s.Current()
		if err := msg.Accumulate(event); err != nil {
			t.Fatal(err)
		}
		calls.Add(event)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	var uses []anthropic.ToolUseBlock
	for _, block := range msg.Content {
		if block.Type == "tool_use" {
			// The union's fields: its Input is the text gathered, cut
			// off or not (see onlyToolUse).
			uses = append(uses, anthropic.ToolUseBlock{ID: block.ID, Name: block.Name, Input: block.Input, Type: "tool_use"})
		}
	}
	return calls, msg, uses, tools
}

// checkGrowing checks that a block's previews show its input growing:
// never fewer members than before, every member complete so far still
// there, the last one complete and equal, as a value, to want.
func checkGrowing(t *testing.T, previews []seen, want json.RawMessage) {
	t.Helper()
	if len(previews) < 10 {
		t.Fatalf("%d previews: the recorded deltas are a few tokens each, one preview each", len(previews))
	}
	if first := previews[0]; len(first.open) == 0 || first.open[0] != "" {
		t.Errorf("the first preview has the input still open: %q", first.open)
	}
	var last map[string]any
	for i, p := range previews {
		if p.err != nil {
			t.Fatalf("preview %d: %v", i, p.err)
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(p.args), &args); err != nil {
			t.Fatal(err)
		}
		if len(args) < len(last) {
			t.Errorf("preview %d has %d members, the one before %d", i, len(args), len(last))
		}
		for k := range last {
			if _, ok := args[k]; !ok {
				t.Errorf("preview %d lost %s", i, k)
			}
		}
		last = args
	}
	end := previews[len(previews)-1]
	if len(end.open) != 0 {
		t.Errorf("the last preview has values open: %q", end.open)
	}
	var got, wantV any
	if err := json.Unmarshal([]byte(end.args), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &wantV); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, wantV) {
		t.Errorf("the last preview:\n%s\nthe input Close gives:\n%s", end.args, want)
	}
}

func wantOps() searchArgs {
	want := wantSearch()
	want.Channel = `{"guild_id": 1458059302022549698, "name": "ops"}`
	want.Tags = []string{"deploy"}
	want.Limit = nil
	want.IncludeBots = true
	return want
}

// Two tool_use blocks streamed in deltas of a few tokens: OnPreview sees
// each block's input grow, keyed by its index and ID ("25" shown as 25
// once its member ends); Close gives, byte for byte, what Tools.Input
// gives for the block Message.Accumulate gathered, with the same repairs
// reported, and Unmarshal what it means.
func TestStreamPreviewsAndClose(t *testing.T) {
	var l listeners
	calls, _, uses, tools := streamMessage(t, l.options(), readSSE(t, "testdata/message_tool_use_stream.txt").bytes())
	got := calls.Close()
	if len(got) != 2 || len(uses) != 2 {
		t.Fatalf("%d blocks, the SDK's %d", len(got), len(uses))
	}
	l.mu.Lock()
	streamed := l.changes
	l.changes = nil
	l.mu.Unlock()
	for i, call := range got {
		if call.Index != i+1 || call.ID != uses[i].ID || call.Name != "search_messages" {
			t.Errorf("block %d: %+v, the SDK's %s", i, call, uses[i].ID)
		}
		want, err := tools.Input(t.Context(), uses[i])
		if err != nil || call.Err != nil {
			t.Fatalf("block %d: %v, %v", i, call.Err, err)
		}
		if !bytes.Equal(call.Input, want) {
			t.Errorf("block %d: Close\n%s\nInput\n%s", i, call.Input, want)
		}
		checkGrowing(t, l.of(call.ID), call.Input)
	}
	if strings.Join(streamed, "\n") != strings.Join(l.changes, "\n") {
		t.Errorf("Close reported\n%s\nInput\n%s", strings.Join(streamed, "\n"), strings.Join(l.changes, "\n"))
	}
	if len(l.errs) != 0 {
		t.Errorf("errors: %v", l.errs)
	}
	shown := false
	for _, p := range l.of(got[0].ID) {
		shown = shown || strings.Contains(p.args, `"limit":25`)
	}
	if !shown {
		t.Error(`no preview showed "limit" converted`)
	}
	for i, want := range []searchArgs{wantSearch(), wantOps()} {
		var in searchArgs
		if err := calls.Unmarshal(got[i], &in); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(in, want) {
			t.Errorf("block %d: got %+v, want %+v", i, in, want)
		}
	}
	if again := calls.Close(); !reflect.DeepEqual(again, got) {
		t.Error("a second Close answered otherwise")
	}
}

// The same stream through the beta API: BetaTools.Stream, with the input
// BetaTools.Input reads from the block BetaMessage.Accumulate gathered.
func TestBetaStreamPreviewsAndClose(t *testing.T) {
	var l listeners
	params := anthropic.BetaMessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 1024,
		Messages:  []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Find last week's deploy messages in #general and #ops."))},
		Tools:     []anthropic.BetaToolUnionParam{{OfTool: &anthropic.BetaToolParam{Name: "search_messages", InputSchema: betaInputSchema(t)}}},
	}
	tools, err := l.options().NewBetaTools(params.Tools)
	if err != nil {
		t.Fatal(err)
	}
	for _, stop := range []string{"tool_use", "max_tokens"} {
		l = listeners{}
		client := serveStream(t, readSSE(t, "testdata/message_tool_use_stream.txt").stopReason(t, stop).bytes())
		s := client.Beta.Messages.NewStreaming(t.Context(), params)
		calls := tools.Stream(t.Context())
		var msg anthropic.BetaMessage
		for s.Next() {
			event := s.Current()
			if err := msg.Accumulate(event); err != nil {
				t.Fatal(err)
			}
			calls.Add(event)
		}
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
		got := calls.Close()
		var uses []anthropic.BetaToolUseBlock
		for _, block := range msg.Content {
			if block.Type == "tool_use" {
				uses = append(uses, anthropic.BetaToolUseBlock{ID: block.ID, Name: block.Name, Input: block.Input, Type: "tool_use"})
			}
		}
		if len(got) != 2 || len(uses) != 2 {
			t.Fatalf("%d blocks, the SDK's %d", len(got), len(uses))
		}
		if stop == "max_tokens" {
			finished := tools.Finished(&msg)
			for _, call := range got {
				if !errors.Is(call.Err, coerce.ErrTruncated) || call.Input != nil || anthropiccoerce.Feedback(call.Err) != anthropiccoerce.Feedback(finished) {
					t.Errorf("a block of a cut-off message: %+v", call)
				}
			}
			if len(l.changes) != 0 || len(l.errs) != 0 {
				t.Errorf("a cut-off block was decoded: changes %q, errors %v", l.changes, l.errs)
			}
			continue
		}
		for i, call := range got {
			want, err := tools.Input(t.Context(), uses[i])
			if err != nil || call.Err != nil {
				t.Fatalf("block %d: %v, %v", i, call.Err, err)
			}
			if !bytes.Equal(call.Input, want) {
				t.Errorf("block %d: Close\n%s\nInput\n%s", i, call.Input, want)
			}
			checkGrowing(t, l.of(call.ID), call.Input)
		}
		var in searchArgs
		if err := calls.Unmarshal(got[0], &in); err != nil {
			t.Fatal(err)
		}
		if want := wantSearch(); !reflect.DeepEqual(in, want) {
			t.Errorf("got %+v, want %+v", in, want)
		}
	}
}

// The same blocks, their input streamed whole and byte by byte, and as
// recorded: Close gives the same bytes and errors, and the last preview
// the same input, whatever the chunking.
func TestStreamChunking(t *testing.T) {
	recorded := readSSE(t, "testdata/message_tool_use_stream.txt")
	var want []anthropiccoerce.StreamedCall
	var wantLast []string
	for _, c := range []struct {
		name string
		body sse
	}{
		{"recorded", recorded},
		{"whole", recorded.resplit(t, whole)},
		{"bytewise", recorded.resplit(t, bytewise)},
	} {
		var l listeners
		calls, _, _, _ := streamMessage(t, l.options(), c.body.bytes())
		got := calls.Close()
		var last []string
		for _, call := range got {
			p := l.of(call.ID)
			last = append(last, p[len(p)-1].args)
		}
		if want == nil {
			want, wantLast = got, last
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Close\n%+v\nrecorded\n%+v", c.name, got, want)
		}
		if !reflect.DeepEqual(last, wantLast) {
			t.Errorf("%s: last previews\n%q\nrecorded\n%q", c.name, last, wantLast)
		}
	}
}

// Input that cannot be converted fails Close as it fails Tools.Input:
// the same InputError (tool, message, feedback), the same bytes, OnError
// told once per block; Unmarshal returns it and writes nothing.
func TestStreamErrorsAsTheRegistry(t *testing.T) {
	broken := readSSE(t, "testdata/message_tool_use_stream.txt").resplit(t, func(input string) []string {
		input = strings.Replace(input, `"limit": "25"`, `"limit": "twenty-five"`, 1)
		input = strings.Replace(input, `"limit": null`, `"limit": "a few"`, 1)
		return bytewise(input)
	})
	var l listeners
	calls, _, uses, tools := streamMessage(t, l.options(), broken.bytes())
	got := calls.Close()
	if len(l.errs) != 2 {
		t.Errorf("OnError heard %d errors", len(l.errs))
	}
	for i, call := range got {
		input, err := tools.Input(t.Context(), uses[i])
		var ie, gotErr *anthropiccoerce.InputError
		if !errors.As(err, &ie) || !errors.As(call.Err, &gotErr) {
			t.Fatalf("block %d: Close %v, Input %v", i, call.Err, err)
		}
		if gotErr.Tool != ie.Tool || gotErr.Error() != ie.Error() || gotErr.Feedback != ie.Feedback || !bytes.Equal(call.Input, input) {
			t.Errorf("block %d: Close %+v\n%s\nInput %+v\n%s", i, gotErr, call.Input, ie, input)
		}
		in := searchArgs{Channel: "untouched"}
		if err := calls.Unmarshal(call, &in); err != call.Err || in.Channel != "untouched" {
			t.Errorf("block %d: Unmarshal %v, wrote %+v", i, err, in)
		}
	}
}

// A message the output limit cut off, every input complete and parsing
// (stop_reason max_tokens or model_context_window_exceeded), and the
// recorded reply cut off inside its input: Close decodes no block (no
// repair reported, no error heard), each has the cut-off error Finished
// gives, and Unmarshal returns it.
func TestStreamCutOffRunsNothing(t *testing.T) {
	recorded := readSSE(t, "testdata/message_tool_use_stream.txt")
	for _, body := range []sse{
		recorded.stopReason(t, "max_tokens"),
		recorded.stopReason(t, "model_context_window_exceeded"),
		readSSE(t, "testdata/message_max_tokens_stream.txt"),
	} {
		var l listeners
		calls, msg, uses, tools := streamMessage(t, l.options(), body.bytes())
		got := calls.Close()
		if len(got) != len(uses) || len(got) == 0 {
			t.Fatalf("%d blocks, the SDK's %d", len(got), len(uses))
		}
		finished := tools.Finished(&msg)
		for _, call := range got {
			var ie *anthropiccoerce.InputError
			if !errors.As(call.Err, &ie) || !errors.Is(call.Err, coerce.ErrTruncated) || ie.Tool != "search_messages" {
				t.Fatalf("%s: %+v", msg.StopReason, call)
			}
			if call.Input != nil || anthropiccoerce.Feedback(call.Err) != anthropiccoerce.Feedback(finished) {
				t.Errorf("%s: %+v", msg.StopReason, call)
			}
			var in searchArgs
			if err := calls.Unmarshal(call, &in); err != call.Err || !reflect.DeepEqual(in, searchArgs{}) {
				t.Errorf("Unmarshal: %v, %+v", err, in)
			}
		}
		if len(l.changes) != 0 || len(l.errs) != 0 {
			t.Errorf("%s: a cut-off block was decoded: changes %q, errors %v", msg.StopReason, l.changes, l.errs)
		}
	}
}

// The recorded max_tokens reply broken off inside the input, before its
// stop reason: Close decodes the block, as Finished allows it, and its
// input fails as Tools.Input fails on the text gathered, cut off.
func TestBrokenStreamFailsAsTheRegistry(t *testing.T) {
	var l listeners
	calls, _, uses, tools := streamMessage(t, l.options(), maxTokensStream(t, true))
	got := calls.Close()
	if len(got) != 1 || len(uses) != 1 {
		t.Fatalf("%d blocks, the SDK's %d", len(got), len(uses))
	}
	input, err := tools.Input(t.Context(), uses[0])
	if !errors.Is(got[0].Err, coerce.ErrTruncated) || anthropiccoerce.Feedback(got[0].Err) != anthropiccoerce.Feedback(err) || !bytes.Equal(got[0].Input, input) {
		t.Errorf("Close %v %s\nInput %v %s", got[0].Err, got[0].Input, err, input)
	}
	if p := l.of(got[0].ID); len(p) == 0 || len(p[len(p)-1].open) == 0 {
		t.Errorf("the last preview of an input cut off: %+v", p)
	}
}
