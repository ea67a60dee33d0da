package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

var streamSchema = mustParse(`{"type":"object","properties":{
	"path":{"type":"string"},"content":{"type":"string"},"limit":{"type":"integer"},
	"tags":{"type":"array","items":{"type":"string"}},"opts":{"type":"object","properties":{"dry_run":{"type":"boolean"}}}},
	"required":["path"]}`)

func mustParse(schema string) *Schema {
	s, err := ParseSchema([]byte(schema))
	if err != nil {
		panic(err)
	}
	return s
}

// streamOf writes text into a new Stream of s in chunks of n bytes.
func streamOf(s *Schema, text []byte, n int) *Stream {
	st := s.Stream()
	for i := 0; i < len(text); i += n {
		st.Write(text[i:min(i+n, len(text))])
	}
	return st
}

// Close is CoerceJSON of all the bytes written, whatever the chunking:
// the same result and the same error, ErrTruncated for every prefix that
// ends inside a value.
func TestStreamCloseIsCoerceJSON(t *testing.T) {
	texts := []string{
		`{"path":"a.go","content":"package main\n\nfunc main() {}\n","limit":"10","tags":"x","opts":"{\"dry_run\":\"true\"}"}`,
		`{"q":"t"}`, `{"q":"t"},"limit":10}`, `{"a":1}{"a":1}`, `{'path': 'x', "limit": 5,}`,
		`{"path":"\u00e9\ud83d\ude00","limit":1e2,"tags":["a",["b"]],"opts":{"dry_run":false}}`, ``, `null`, `[1]`, `{"a":tru}`,
	}
	for _, text := range texts {
		for cut := 0; cut <= len(text); cut++ {
			prefix := []byte(text[:cut])
			want, werr := streamSchema.CoerceJSON(bytes.Clone(prefix))
			for _, n := range []int{1, 2, 3, 7, 64} {
				got, gerr := streamOf(streamSchema, prefix, n).Close()
				if !bytes.Equal(got, want) || errText(gerr) != errText(werr) {
					t.Fatalf("%q in chunks of %d: Close = %s, %v; CoerceJSON = %s, %v", prefix, n, got, gerr, want, werr)
				}
			}
		}
	}
}

// Nothing but Close finalises: a complete object followed by more text is
// one call.
func TestStreamNeverFinalisesEarly(t *testing.T) {
	st := streamSchema.Stream()
	st.Write([]byte(`{"path":"t"}`))
	if p := st.Preview(); len(p.Open) != 0 || p.Err != nil || p.Args["path"] != "t" {
		t.Fatalf("after the first object: %+v", p)
	}
	st.Write([]byte(`,"limit":10}`))
	out, err := st.Close()
	want, werr := streamSchema.CoerceJSON([]byte(`{"path":"t"},"limit":10}`))
	if !bytes.Equal(out, want) || errText(err) != errText(werr) || err == nil {
		t.Fatalf("Close = %s, %v; want %s, %v", out, err, want, werr)
	}
}

func TestStreamPreview(t *testing.T) {
	for _, c := range []struct {
		text string
		args string
		open []string
		err  error
	}{
		{``, `{}`, []string{""}, nil},
		{`{`, `{}`, []string{""}, nil},
		{`{"pa`, `{}`, []string{""}, nil},
		{`{"path"`, `{}`, []string{""}, nil},
		{`{"path":`, `{}`, []string{""}, nil},
		{`{"path":"src/ma`, `{"path":"src/ma"}`, []string{"", "/path"}, nil},
		{`{"path":"a\n\u00e`, `{"path":"a\n"}`, []string{"", "/path"}, nil},
		{`{"path":"a","limit":1`, `{"limit":1,"path":"a"}`, []string{"", "/limit"}, nil},
		{`{"path":"a","limit":"12"`, `{"limit":12,"path":"a"}`, []string{""}, nil},
		{`{"path":"a","limit":-`, `{"path":"a"}`, []string{"", "/limit"}, nil},
		{`{"path":"a","tags":["x","y`, `{"path":"a","tags":["x","y"]}`, []string{"", "/tags", "/tags/1"}, nil},
		{`{"path":"a","opts":{"dry_run":tr`, `{"opts":{},"path":"a"}`, []string{"", "/opts", "/opts/dry_run"}, nil},
		{`{"path":"a","opts":{"dry_run":true}`, `{"opts":{"dry_run":true},"path":"a"}`, []string{""}, nil},
		{`{"path":"a"}`, `{"path":"a"}`, nil, nil},
		{`{"path":'a'`, `{}`, nil, ErrSyntax},
		{`[1,`, `{}`, nil, ErrKind},
		{`{"tags":[[[[[[[[[[[[`, `{}`, nil, ErrLimit},
	} {
		st := streamOf(streamSchema.WithOptions(Options{MaxDepth: 8}), []byte(c.text), 1)
		p := st.Preview()
		if got := asJSON(p.Args); got != c.args || !reflect.DeepEqual(p.Open, c.open) || !errors.Is(p.Err, c.err) || (c.err == nil) != (p.Err == nil) {
			t.Errorf("%s: Preview = %s, open %q, %v; want %s, open %q, %v", c.text, got, p.Open, p.Err, c.args, c.open, c.err)
		}
	}
}

// A preview after every byte keeps the stream linear: the open string is
// decoded as it grows, the complete members once.
func TestStreamPreviewWork(t *testing.T) {
	for _, n := range []int{1 << 12, 1 << 16} {
		text := []byte(fmt.Sprintf(`{"path":"a","content":%q}`, bytes.Repeat([]byte("x\n"), n/2)))
		st := streamSchema.Stream()
		for i := range text {
			st.Write(text[i : i+1])
			st.Preview()
		}
		if st.decoded > len(text) || st.sc.steps > 2*len(text) {
			t.Fatalf("%d bytes, a preview after each: %d decoded by the previews, %d steps", len(text), st.decoded, st.sc.steps)
		}
		out, err := st.Close()
		if err != nil || !json.Valid(out) {
			t.Fatalf("Close = %.40s, %v", out, err)
		}
	}
}

// FuzzStream: any text in any chunks closes as CoerceJSON of the whole,
// the writes step each byte at most twice, and a preview after every
// chunk never fails.
func FuzzStream(f *testing.F) {
	for _, s := range []string{`{"path":"a.go","content":"x\ny","limit":"10","tags":["a"],"opts":{"dry_run":"true"}}`,
		`{"a":1}{"a":1}`, `{'path': 'x',}`, `{"path":"\ud83d\ude00","limit":-1.5e+3}`, `{"path":[{"a":[null,true,false]}]}`, `nul`} {
		f.Add([]byte(s), uint64(0x0102030405060708))
	}
	f.Fuzz(func(t *testing.T, text []byte, cuts uint64) {
		want, werr := streamSchema.CoerceJSON(bytes.Clone(text))
		st := streamSchema.Stream()
		for i := 0; i < len(text); {
			n := 1 + int(cuts&7)
			cuts = cuts>>3 | cuts<<61
			st.Write(text[i:min(i+n, len(text))])
			st.Preview()
			i += n
		}
		if st.sc.steps > 2*len(text) {
			t.Fatalf("%d bytes: %d steps", len(text), st.sc.steps)
		}
		p := st.Preview()
		got, gerr := st.Close()
		if !bytes.Equal(got, want) || errText(gerr) != errText(werr) {
			t.Fatalf("Close = %s, %v; CoerceJSON = %s, %v", got, gerr, want, werr)
		}
		// A stream the previews call complete and valid is JSON.
		if p.Err == nil && len(p.Open) == 0 && !jsonwire.Valid(text, 0) {
			t.Fatalf("%q: the preview calls it complete, but it is not JSON", text)
		}
	})
}
