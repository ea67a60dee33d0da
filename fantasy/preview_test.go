package fantasycoerce_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"charm.land/fantasy"
	"github.com/coerce-go/coerce"
	fantasycoerce "github.com/coerce-go/coerce/fantasy"
)

// A shown is one preview, as OnPreview was shown it: Args as JSON text (a
// Partial is valid only until the next delta).
type shown struct {
	tool, id, args string
	open           []string
	err            error
}

type previewRecorder struct {
	mu   sync.Mutex
	seen []shown
}

func (r *previewRecorder) hook(_ context.Context, tool, id string, p coerce.Partial) {
	args, err := json.Marshal(p.Args)
	if err != nil {
		panic(err)
	}
	r.mu.Lock()
	r.seen = append(r.seen, shown{tool, id, string(args), append([]string(nil), p.Open...), p.Err})
	r.mu.Unlock()
}

func (r *previewRecorder) all() []shown {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]shown(nil), r.seen...)
}

// checkGrowing checks that a call's previews show its input growing, and
// that the last one, complete, means what the tool ran with.
func checkGrowing(t *testing.T, previews []shown, ran lookupInput) {
	t.Helper()
	if len(previews) == 0 {
		t.Fatal("no preview")
	}
	if first := previews[0]; len(previews) > 1 && (len(first.open) == 0 || first.open[0] != "") {
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
		for k := range last {
			if _, ok := args[k]; !ok {
				t.Errorf("preview %d lost %s: %s", i, k, p.args)
			}
		}
		last = args
	}
	end := previews[len(previews)-1]
	if len(end.open) != 0 {
		t.Errorf("the last preview has values open: %q", end.open)
	}
	var in lookupInput
	if err := json.Unmarshal([]byte(end.args), &in); err != nil {
		t.Fatalf("the last preview %s does not decode as the tool's input: %v", end.args, err)
	}
	if !reflect.DeepEqual(in, ran) {
		t.Errorf("the last preview means %+v, the tool ran with %+v", in, ran)
	}
}

// A reply streamed by the API with its tool_use input in deltas of a few
// tokens (testdata/message_tool_use_stream.txt), through fantasy's
// Anthropic provider and agent, the model wrapped with OnPreview:
// OnPreview sees the input grow, converted as members end ("5" shows as
// 5, the tags' JSON text as a list), and the last preview is what the
// tool then runs with. fantasy's Anthropic provider carries each delta in
// the part's ToolCallInput, not its Delta: read all the same.
func TestStreamPreviews(t *testing.T) {
	api := newMessagesAPI(t, "message_tool_use_stream.txt", "message_end_turn.json")
	var rec previewRecorder
	o := fantasycoerce.Options{OnPreview: rec.hook}
	c := newConversation(t, api, o, true, true)
	results := c.say(t, o, "Find posts about Go generics.")
	previews := rec.all()
	if len(results) != 1 || len(previews) != 10 {
		t.Fatalf("results %q, %d previews (10 deltas recorded)", results, len(previews))
	}
	var ran lookupInput
	for id := range results {
		var ok bool
		if ran, ok = c.ran.get(id); !ok {
			t.Fatal("the tool did not run")
		}
		for _, p := range previews {
			if p.id != id || p.tool != "lookup" {
				t.Errorf("a preview of %s %s, the call is %s lookup", p.tool, p.id, id)
			}
		}
	}
	checkGrowing(t, previews, ran)
	converted := false
	for _, p := range previews {
		converted = converted || strings.Contains(p.args, `"limit":5`)
	}
	if !converted {
		t.Error(`no preview showed "limit" converted`)
	}
}

// The same reply cut off by max_tokens
// (testdata/message_max_tokens_stream.txt), its input complete: the
// previews are shown as the input arrives, but the tool never runs, and
// the call's result is the cut-off feedback.
func TestStreamPreviewsOfACutOffCall(t *testing.T) {
	api := newMessagesAPI(t, "message_max_tokens_stream.txt", "message_end_turn.json")
	var rec previewRecorder
	o := fantasycoerce.Options{OnPreview: rec.hook}
	c := newConversation(t, api, o, true, true)
	results := c.say(t, o, "Find posts about Go generics.")
	if len(rec.all()) != 10 {
		t.Errorf("%d previews", len(rec.all()))
	}
	if len(c.ran.got) != 0 {
		t.Fatalf("the tool ran with %+v", c.ran.got)
	}
	for _, r := range results {
		if !strings.Contains(r, "cut off before their end, so the tool did not run") {
			t.Errorf("the result of the cut-off call: %q", r)
		}
	}
}

// piecesModel streams one call to lookup, its input in the given pieces
// (each a StreamPartTypeToolInputDelta's Delta, as fantasy's OpenAI and
// Google providers send them), then "done".
type piecesModel struct {
	scriptedModel
	pieces []string
}

func (m *piecesModel) Stream(ctx context.Context, call fantasy.Call) (fantasy.StreamResponse, error) {
	resp, err := m.Generate(ctx, call)
	if err != nil {
		return nil, err
	}
	if resp.FinishReason != fantasy.FinishReasonToolCalls {
		return m.scriptedModel.Stream(ctx, call)
	}
	return func(yield func(fantasy.StreamPart) bool) {
		parts := []fantasy.StreamPart{{Type: fantasy.StreamPartTypeToolInputStart, ID: "call-1", ToolCallName: "lookup"}}
		for _, p := range m.pieces {
			parts = append(parts, fantasy.StreamPart{Type: fantasy.StreamPartTypeToolInputDelta, ID: "call-1", Delta: p})
		}
		parts = append(parts,
			fantasy.StreamPart{Type: fantasy.StreamPartTypeToolInputEnd, ID: "call-1"},
			fantasy.StreamPart{Type: fantasy.StreamPartTypeToolCall, ID: "call-1", ToolCallName: "lookup", ToolCallInput: strings.Join(m.pieces, "")},
			fantasy.StreamPart{Type: fantasy.StreamPartTypeFinish, FinishReason: fantasy.FinishReasonToolCalls})
		for _, p := range parts {
			if !yield(p) {
				return
			}
		}
	}, nil
}

func (m *piecesModel) Generate(ctx context.Context, call fantasy.Call) (*fantasy.Response, error) {
	return m.scriptedModel.Generate(ctx, call)
}

// The same input in one delta, byte by byte, and in a few tokens each:
// the last preview, and what the tool runs with, are the same.
func TestStreamPreviewsWhateverTheChunking(t *testing.T) {
	const input = `{"query": "go generics", "limit": "5", "tags": "[\"go\", \"generics\"]"}`
	bytewise := make([]string, len(input))
	for i := range input {
		bytewise[i] = input[i : i+1]
	}
	var wantLast string
	var wantRan lookupInput
	for i, pieces := range [][]string{
		{`{"query":`, ` "go generics`, `", "limit`, `": "5`, `", "tags": "[\"`, `go\", \"generics`, `\"]"}`},
		{input},
		bytewise,
	} {
		m := &piecesModel{scriptedModel: scriptedModel{turns: [][]fantasy.Content{{toolCall("call-1", "lookup", input)}}}, pieces: pieces}
		var rec previewRecorder
		o := fantasycoerce.Options{OnPreview: rec.hook}
		lookup, ran := typedTool[lookupInput]("lookup", false)
		runWithHook(t, true, o.WrapModel(m), o.RepairToolCall(nil), o.WithTools(lookup))
		previews := rec.all()
		if len(previews) != len(pieces) {
			t.Fatalf("%d pieces, %d previews", len(pieces), len(previews))
		}
		got, ok := ran.get("call-1")
		if !ok {
			t.Fatal("the tool did not run")
		}
		checkGrowing(t, previews, got)
		last := previews[len(previews)-1].args
		if i == 0 {
			wantLast, wantRan = last, got
			continue
		}
		if last != wantLast || !reflect.DeepEqual(got, wantRan) {
			t.Errorf("pieces %d: last preview %s, ran %+v; want %s, %+v", i, last, got, wantLast, wantRan)
		}
	}
}

// A tool the call did not offer is previewed as an object of anything; a
// model wrapped without OnPreview shows nothing; both pass every part on.
func TestStreamPreviewsOfAToolNotOffered(t *testing.T) {
	for _, withHook := range []bool{true, false} {
		m := &piecesModel{scriptedModel: scriptedModel{turns: [][]fantasy.Content{{toolCall("call-1", "lookup", "")}}}, pieces: []string{`{"query": "go", `, `"limit": "5"}`}}
		var rec previewRecorder
		var o fantasycoerce.Options
		if withHook {
			o.OnPreview = rec.hook
		}
		stream, err := o.WrapModel(m).Stream(t.Context(), fantasy.Call{})
		if err != nil {
			t.Fatal(err)
		}
		var parts []fantasy.StreamPartType
		for part := range stream {
			parts = append(parts, part.Type)
		}
		if len(parts) != 6 {
			t.Errorf("parts %q", parts)
		}
		previews := rec.all()
		switch {
		case withHook && (len(previews) != 2 || previews[1].args != `{"limit":"5","query":"go"}`):
			t.Errorf("previews %+v", previews)
		case !withHook && len(previews) != 0:
			t.Errorf("previews without OnPreview: %+v", previews)
		}
	}
}
