package openaicoerce_test

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

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// The streams are read by the SDK's own streaming client from an httptest
// server on the loopback interface that sends a body in the API's wire
// format (server-sent events, as the API sends them):
//
//   - testdata/chat_completion_parallel_stream.txt: two parallel calls of
//     search_messages in one choice, their arguments in token-sized deltas
//     (`{"`, `channel`, `":`, ...), as the API splits them;
//   - testdata/chat_completion_stream.txt: one call in six larger deltas;
//   - testdata/response_stream.txt: the function calls of response.json
//     (one inside the moderation namespace), response.output_item.added,
//     token-sized response.function_call_arguments.delta events, .done,
//     response.output_item.done and response.completed;
//   - testdata/response_incomplete_stream.txt: the same response left
//     incomplete at max_output_tokens inside the second call's arguments,
//     the first call complete.

// sse is a body of server-sent events: each event's name ("" for none)
// and data.
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
		if e.event != "" {
			fmt.Fprintf(&b, "event: %s\n", e.event)
		}
		fmt.Fprintf(&b, "data: %s\n\n", e.data)
	}
	return b.Bytes()
}

// rewrite returns the events with each one's data (decoded, numbers kept)
// replaced by what f returns for it: none, itself or several.
func (s sse) rewrite(t testing.TB, f func(m map[string]any) []map[string]any) sse {
	t.Helper()
	var out sse
	for _, e := range s {
		if e.data == "[DONE]" {
			out = append(out, e)
			continue
		}
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

// serve returns a client of an API on 127.0.0.1 that streams body to
// every request.
func serve(t testing.TB, body []byte) openai.Client {
	t.Helper()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	t.Cleanup(server.Close)
	return openai.NewClient(option.WithBaseURL(server.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// A seen is one preview, as OnPreview was shown it: Args as JSON text
// (a Partial is valid only until the next delta).
type seen struct {
	call openaicoerce.StreamedCall
	args string
	open []string
	err  error
}

// listeners records what a stream's registry reports.
type listeners struct {
	mu       sync.Mutex
	previews []seen
	changes  []string
	errs     []error
}

func (l *listeners) options() openaicoerce.Options {
	return openaicoerce.Options{
		OnPreview: func(_ context.Context, call openaicoerce.StreamedCall, p coerce.Partial) {
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

// of returns the previews of the call with the given ID.
func (l *listeners) of(id string) []seen {
	var out []seen
	for _, p := range l.previews {
		if p.call.ID == id {
			out = append(out, p)
		}
	}
	return out
}

func chatParams(t testing.TB) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5_4Mini,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Find last week's deploy messages in #general and #ops.")},
		Tools:    chatTools(t),
	}
}

// streamChat streams body through the SDK's client to a ChatStream of a
// registry made with o, and to the SDK's accumulator.
func streamChat(t testing.TB, o openaicoerce.Options, body []byte) (*openaicoerce.ChatStream, *openai.ChatCompletionAccumulator, *openaicoerce.ChatTools) {
	t.Helper()
	params := chatParams(t)
	tools, err := o.NewChatTools(params.Tools)
	if err != nil {
		t.Fatal(err)
	}
	client := serve(t, body)
	s := client.Chat.Completions.NewStreaming(context.Background(), params)
	calls := tools.Stream(context.Background())
	acc := &openai.ChatCompletionAccumulator{}
	for s.Next() {
		chunk := s.Current()
		acc.AddChunk(chunk)
		calls.Add(chunk)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return calls, acc, tools
}

// checkGrowing checks that a call's previews show its arguments growing:
// never fewer members than before, every member complete so far still
// there, the last one complete and equal, as a value, to want.
func checkGrowing(t *testing.T, previews []seen, want json.RawMessage) {
	t.Helper()
	if len(previews) < 10 {
		t.Fatalf("%d previews: the recorded deltas are token-sized, one preview each", len(previews))
	}
	if first := previews[0]; len(first.open) == 0 || first.open[0] != "" {
		t.Errorf("the first preview has the arguments still open: %q", first.open)
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
		t.Errorf("the last preview:\n%s\nthe arguments Close gives:\n%s", end.args, want)
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

// Two parallel calls streamed in token-sized deltas: OnPreview sees each
// call's arguments grow, keyed by its index and ID, converted as members
// complete ("25" shows as 25 once its member ends); Close gives, byte for
// byte, what ChatTools.Arguments gives for the call the SDK's accumulator
// gathered, with the same repairs reported, and Unmarshal what it means.
func TestChatStreamPreviewsAndClose(t *testing.T) {
	var l listeners
	calls, acc, tools := streamChat(t, l.options(), readSSE(t, "testdata/chat_completion_parallel_stream.txt").bytes())
	l.mu.Lock()
	previews := len(l.previews)
	l.mu.Unlock()

	got := calls.Close()
	if len(got) != 2 {
		t.Fatalf("%d calls", len(got))
	}
	l.mu.Lock()
	streamed := l.changes
	l.changes = nil
	l.mu.Unlock()
	if len(l.previews) != previews {
		t.Error("Close showed previews")
	}
	msg := acc.Choices[0].Message
	for i, call := range got {
		sdk := msg.ToolCalls[i]
		if call.Choice != 0 || call.Index != i || call.ID != sdk.ID || call.Name != "search_messages" {
			t.Errorf("call %d: %+v, the SDK's %s %s", i, call, sdk.ID, sdk.Function.Name)
		}
		want, err := tools.Arguments(t.Context(), sdk)
		if err != nil || call.Err != nil {
			t.Fatalf("call %d: %v, %v", i, call.Err, err)
		}
		if !bytes.Equal(call.Arguments, want) {
			t.Errorf("call %d: Close\n%s\nArguments\n%s", i, call.Arguments, want)
		}
		checkGrowing(t, l.of(call.ID), call.Arguments)
	}
	if strings.Join(streamed, "\n") != strings.Join(l.changes, "\n") {
		t.Errorf("Close reported\n%s\nArguments\n%s", strings.Join(streamed, "\n"), strings.Join(l.changes, "\n"))
	}
	if len(l.errs) != 0 {
		t.Errorf("errors: %v", l.errs)
	}
	// "limit": "25" is shown as 25 once its member has ended.
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
			t.Errorf("call %d: got %+v, want %+v", i, in, want)
		}
	}
	if again := calls.Close(); !reflect.DeepEqual(again, got) {
		t.Error("a second Close answered otherwise")
	}
}

// rechunk returns a chat stream whose calls' arguments are cut into the
// pieces split makes of each call's whole text, in place of the recorded
// deltas.
func rechunk(t testing.TB, s sse, split func(args string) []string) sse {
	t.Helper()
	whole := map[string]string{}
	s.rewrite(t, func(m map[string]any) []map[string]any {
		for _, tc := range toolCallDeltas(m) {
			whole[fmt.Sprint(tc["index"])] += tc["function"].(map[string]any)["arguments"].(string)
		}
		return nil
	})
	return s.rewrite(t, func(m map[string]any) []map[string]any {
		tcs := toolCallDeltas(m)
		if len(tcs) != 1 {
			return []map[string]any{m}
		}
		f := tcs[0]["function"].(map[string]any)
		if _, first := tcs[0]["id"]; first {
			f["arguments"] = ""
			return []map[string]any{m}
		}
		index := fmt.Sprint(tcs[0]["index"])
		args, ok := whole[index]
		if !ok {
			return nil // the call's pieces are out already
		}
		delete(whole, index)
		var out []map[string]any
		for _, piece := range split(args) {
			var c map[string]any
			b, _ := json.Marshal(m)
			d := json.NewDecoder(bytes.NewReader(b))
			d.UseNumber()
			if err := d.Decode(&c); err != nil {
				t.Fatal(err)
			}
			toolCallDeltas(c)[0]["function"].(map[string]any)["arguments"] = piece
			out = append(out, c)
		}
		return out
	})
}

func toolCallDeltas(m map[string]any) []map[string]any {
	choices, _ := m["choices"].([]any)
	var out []map[string]any
	for _, c := range choices {
		delta, _ := c.(map[string]any)["delta"].(map[string]any)
		tcs, _ := delta["tool_calls"].([]any)
		for _, tc := range tcs {
			out = append(out, tc.(map[string]any))
		}
	}
	return out
}

func bytewise(args string) []string {
	out := make([]string, len(args))
	for i := range args {
		out[i] = args[i : i+1]
	}
	return out
}

func whole(args string) []string { return []string{args} }

// The same calls, their arguments streamed whole, byte by byte, in the
// recorded token-sized deltas, and (one call) in the six larger deltas of
// chat_completion_stream.txt: Close gives the same bytes and errors, and
// the last preview the same arguments, whatever the chunking. A byte-wise
// delta may cut a character in two; the arguments are ASCII here, and the
// core's FuzzStream covers any chunking.
func TestChatStreamChunking(t *testing.T) {
	for _, file := range []string{"testdata/chat_completion_parallel_stream.txt", "testdata/chat_completion_stream.txt"} {
		recorded := readSSE(t, file)
		var want []openaicoerce.StreamedCall
		var wantLast []string
		for _, c := range []struct {
			name string
			body sse
		}{
			{"recorded", recorded},
			{"whole", rechunk(t, recorded, whole)},
			{"bytewise", rechunk(t, recorded, bytewise)},
		} {
			var l listeners
			calls, _, _ := streamChat(t, l.options(), c.body.bytes())
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
				t.Errorf("%s, %s: Close\n%+v\nrecorded\n%+v", file, c.name, got, want)
			}
			if !reflect.DeepEqual(last, wantLast) {
				t.Errorf("%s, %s: last previews\n%q\nrecorded\n%q", file, c.name, last, wantLast)
			}
		}
	}
}

// Arguments that cannot be converted fail Close as they fail Arguments:
// the same ArgumentsError (function, message, feedback), the same bytes,
// OnError told once; Unmarshal returns it and writes nothing.
func TestChatStreamErrorsAsTheRegistry(t *testing.T) {
	broken := func(args string) []string {
		args = strings.Replace(args, `"limit": "25"`, `"limit": "twenty-five"`, 1)
		args = strings.Replace(args, `"limit": null`, `"limit": "a few"`, 1)
		return bytewise(args)
	}
	var l listeners
	calls, acc, tools := streamChat(t, l.options(), rechunk(t, readSSE(t, "testdata/chat_completion_parallel_stream.txt"), broken).bytes())
	got := calls.Close()
	if len(l.errs) != 2 {
		t.Errorf("OnError heard %d errors", len(l.errs))
	}
	for i, call := range got {
		args, err := tools.Arguments(t.Context(), acc.Choices[0].Message.ToolCalls[i])
		var ae, got *openaicoerce.ArgumentsError
		if !errors.As(err, &ae) || !errors.As(call.Err, &got) {
			t.Fatalf("call %d: Close %v, Arguments %v", i, call.Err, err)
		}
		if got.Function != ae.Function || got.Error() != ae.Error() || got.Feedback != ae.Feedback || !bytes.Equal(call.Arguments, args) {
			t.Errorf("call %d: Close %+v\n%s\nArguments %+v\n%s", i, got, call.Arguments, ae, args)
		}
		if !errors.Is(call.Err, coerce.ErrSyntax) || !strings.Contains(openaicoerce.Feedback(call.Err), "/limit") {
			t.Errorf("call %d: %v\n%s", i, call.Err, openaicoerce.Feedback(call.Err))
		}
		in := searchArgs{Channel: "untouched"}
		if err := calls.Unmarshal(call, &in); err != call.Err || in.Channel != "untouched" {
			t.Errorf("call %d: Unmarshal %v, wrote %+v", i, err, in)
		}
	}
}

// A reply the output limit cut off (finish_reason "length"), every call's
// arguments complete and parsing: Close decodes none of them (no repair
// reported, no error heard), each has the cut-off error Finished gives,
// and Unmarshal returns it. The recorded stream cut off inside the
// arguments alike.
func TestChatStreamCutOffRunsNothing(t *testing.T) {
	length := readSSE(t, "testdata/chat_completion_parallel_stream.txt").rewrite(t, func(m map[string]any) []map[string]any {
		for _, c := range m["choices"].([]any) {
			if c := c.(map[string]any); c["finish_reason"] == "tool_calls" {
				c["finish_reason"] = "length"
			}
		}
		return []map[string]any{m}
	})
	for _, body := range [][]byte{length.bytes(), readSSE(t, "testdata/chat_completion_length_stream.txt").bytes()} {
		var l listeners
		calls, acc, tools := streamChat(t, l.options(), body)
		got := calls.Close()
		if len(got) != len(acc.Choices[0].Message.ToolCalls) || len(got) == 0 {
			t.Fatalf("%d calls, the accumulator %d", len(got), len(acc.Choices[0].Message.ToolCalls))
		}
		finished := tools.Finished(acc.Choices[0])
		for _, call := range got {
			checkCutOff(t, call.Err)
			if call.Arguments != nil || openaicoerce.Feedback(call.Err) != openaicoerce.Feedback(finished) {
				t.Errorf("%+v", call)
			}
			var in searchArgs
			if err := calls.Unmarshal(call, &in); err != call.Err || !reflect.DeepEqual(in, searchArgs{}) {
				t.Errorf("Unmarshal: %v, %+v", err, in)
			}
		}
		if len(l.changes) != 0 || len(l.errs) != 0 {
			t.Errorf("a cut-off call was decoded: changes %q, errors %v", l.changes, l.errs)
		}
		if len(l.previews) == 0 {
			t.Error("no preview")
		}
	}
}

func responseParams(t testing.TB) responses.ResponseNewParams {
	return responses.ResponseNewParams{
		Model: openai.ChatModelGPT5_4Mini,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Find last week's deploy messages in #general, and delete the spam.")},
		Tools: responseTools(t),
	}
}

func streamResponse(t testing.TB, o openaicoerce.Options, body []byte) (*openaicoerce.ResponseStream, *responses.Response, *openaicoerce.ResponseTools) {
	t.Helper()
	params := responseParams(t)
	tools, err := o.NewResponseTools(params.Tools)
	if err != nil {
		t.Fatal(err)
	}
	client := serve(t, body)
	s := client.Responses.NewStreaming(context.Background(), params)
	calls := tools.Stream(context.Background())
	var final *responses.Response
	for s.Next() {
		event := s.Current()
		calls.Add(event)
		switch event.Type {
		case "response.completed", "response.incomplete":
			r := event.Response
			final = &r
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if final == nil {
		t.Fatal("the stream did not end with the response")
	}
	return calls, final, tools
}

// A Responses API stream: previews grow per call, keyed by output index,
// item id and call_id, a namespaced function's namespace kept; Close gives
// what ResponseTools.Arguments gives for the function call items of the
// final response, byte for byte, and Unmarshal what they mean.
func TestResponseStreamPreviewsAndClose(t *testing.T) {
	var l listeners
	calls, final, tools := streamResponse(t, l.options(), readSSE(t, "testdata/response_stream.txt").bytes())
	got := calls.Close()
	var items []responses.ResponseFunctionToolCall
	for _, item := range final.Output {
		if item.Type == "function_call" {
			items = append(items, item.AsFunctionCall())
		}
	}
	if len(got) != 2 || len(items) != 2 {
		t.Fatalf("%d calls, %d items", len(got), len(items))
	}
	for i, call := range got {
		item := items[i]
		if call.Index != i || call.ID != item.CallID || call.ItemID != item.ID || call.Name != item.Name || call.Namespace != item.Namespace {
			t.Errorf("call %d: %+v, item %s %s %s.%s", i, call, item.ID, item.CallID, item.Namespace, item.Name)
		}
		want, err := tools.Arguments(t.Context(), item)
		if err != nil || call.Err != nil {
			t.Fatalf("call %d: %v, %v", i, call.Err, err)
		}
		if !bytes.Equal(call.Arguments, want) {
			t.Errorf("call %d: Close\n%s\nArguments\n%s", i, call.Arguments, want)
		}
		checkGrowing(t, l.of(call.ID), call.Arguments)
	}
	if got[1].Namespace != "moderation" {
		t.Errorf("the namespaced call: %+v", got[1])
	}
	var in searchArgs
	if err := calls.Unmarshal(got[0], &in); err != nil {
		t.Fatal(err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}
	var del deleteArgs
	if err := calls.Unmarshal(got[1], &del); err != nil {
		t.Fatal(err)
	}
	if want := []int64{1458059302022549698, 1458059302022549699}; !reflect.DeepEqual(del.IDs, want) {
		t.Errorf("ids %v, want %v", del.IDs, want)
	}
}

// The Responses API stream, its argument deltas whole and byte by byte,
// and with no delta at all (only .done, as some servers send it): Close
// and the last previews are the same.
func TestResponseStreamChunking(t *testing.T) {
	recorded := readSSE(t, "testdata/response_stream.txt")
	resplit := func(split func(string) []string) sse {
		return recorded.rewrite(t, func(m map[string]any) []map[string]any {
			switch m["type"] {
			case "response.function_call_arguments.delta":
				return nil
			case "response.function_call_arguments.done":
				var out []map[string]any
				for _, piece := range split(m["arguments"].(string)) {
					out = append(out, map[string]any{"type": "response.function_call_arguments.delta", "item_id": m["item_id"], "output_index": m["output_index"], "delta": piece})
				}
				return append(out, m)
			}
			return []map[string]any{m}
		})
	}
	var want []openaicoerce.StreamedCall
	for _, c := range []struct {
		name string
		body sse
	}{
		{"recorded", recorded},
		{"whole", resplit(whole)},
		{"bytewise", resplit(bytewise)},
		{"no deltas", resplit(func(string) []string { return nil })},
	} {
		calls, _, _ := streamResponse(t, openaicoerce.Options{}, c.body.bytes())
		got := calls.Close()
		if want == nil {
			want = got
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Close\n%+v\nrecorded\n%+v", c.name, got, want)
		}
	}
}

// A response left incomplete at max_output_tokens, inside its second
// call's arguments: neither call is decoded, not even the first, whose
// arguments are complete; each has the error ResponseTools.Finished
// gives.
func TestResponseStreamIncompleteRunsNothing(t *testing.T) {
	var l listeners
	calls, final, tools := streamResponse(t, l.options(), readSSE(t, "testdata/response_incomplete_stream.txt").bytes())
	got := calls.Close()
	if len(got) != 2 {
		t.Fatalf("%d calls", len(got))
	}
	if first := final.Output[0].AsFunctionCall(); !json.Valid([]byte(first.Arguments)) {
		t.Fatal("the recorded first call should be complete: the point is that it does not run all the same")
	}
	finished := tools.Finished(final)
	for _, call := range got {
		checkCutOff(t, call.Err)
		if call.Arguments != nil || openaicoerce.Feedback(call.Err) != openaicoerce.Feedback(finished) {
			t.Errorf("%+v", call)
		}
	}
	if len(l.changes) != 0 || len(l.errs) != 0 {
		t.Errorf("a cut-off call was decoded: changes %q, errors %v", l.changes, l.errs)
	}
}

// A call to a function the registry does not know passes through Close as
// it came, previewed as an object; streams of one registry run
// concurrently, one per goroutine.
func TestChatStreamUnknownFunctionAndConcurrency(t *testing.T) {
	var l listeners
	tools, err := l.options().NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	chunk := func(data string) openai.ChatCompletionChunk {
		var c openai.ChatCompletionChunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			s := tools.Stream(t.Context())
			s.Add(chunk(fmt.Sprintf(`{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_%d", "type": "function", "function": {"name": "lookup", "arguments": "{\"n\": \"5\", "}}]}}]}`, i)))
			s.Add(chunk(`{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "\"q\": [1, 2]}"}}]}}]}`))
			s.Add(chunk(`{"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}`))
			got := s.Close()
			if len(got) != 1 || got[0].Err != nil || string(got[0].Arguments) != `{"n": "5", "q": [1, 2]}` {
				t.Errorf("%+v", got)
			}
		})
	}
	wg.Wait()
	shown := map[string]int{}
	for _, p := range l.previews {
		shown[p.args]++
	}
	if want := map[string]int{`{"n":"5"}`: 8, `{"n":"5","q":[1,2]}`: 8}; !reflect.DeepEqual(shown, want) {
		t.Errorf("previews %v, want %v", shown, want)
	}
	if len(l.changes) != 0 || len(l.errs) != 0 {
		t.Errorf("changes %q, errors %v", l.changes, l.errs)
	}
}
