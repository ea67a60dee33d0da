package coerce

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The rules of names, nulls and enums (README, "Beyond shape"), by every
// entry point: Coerce, CoerceJSON and Unmarshal give the same.
const namesSchema = `{"type":"object","properties":{
	"max_results":{"type":"integer"},
	"calendar_id":{"type":"string"},
	"query":{"type":"string","x-aliases":["q","search"]},
	"order":{"type":"string","enum":["asc","desc"]},
	"mode":{"enum":["Fast","fast"]},
	"unit":{"type":["string","null"],"enum":["celsius","fahrenheit",null]},
	"scale":{"type":"string","enum":["linear","log"],"nullable":true},
	"page":{"type":["integer","null"]},
	"limit":{"type":"integer"},
	"tags":{"type":"array","items":{"type":"string"}}
},"required":["limit"]}`

type namesInput struct {
	MaxResults int      `json:"max_results"`
	CalendarID string   `json:"calendar_id"`
	Query      string   `json:"query"`
	Order      string   `json:"order"`
	Page       *int     `json:"page"`
	Limit      *int     `json:"limit"`
	Tags       []string `json:"tags"`
}

func TestNamesNullsAndEnums(t *testing.T) {
	s := mustSchema(t, Options{}, namesSchema)
	for _, c := range []struct {
		name, args, want, rules string
	}{
		{"camel", `{"maxResults":"5"}`, `{"max_results":5}`, "renamed number-from-text"},
		{"Pascal", `{"MaxResults":5}`, `{"max_results":5}`, "renamed"},
		{"kebab", `{"max-results":5}`, `{"max_results":5}`, "renamed"},
		{"upper snake", `{"MAX_RESULTS":5}`, `{"max_results":5}`, "renamed"},
		{"calendarId", `{"calendarId":"c1"}`, `{"calendar_id":"c1"}`, "renamed"},
		{"Query", `{"Query":"x"}`, `{"query":"x"}`, "renamed"},
		{"alias", `{"q":"x"}`, `{"query":"x"}`, "renamed"},
		{"both spellings: nothing renamed", `{"maxResults":1,"max_results":2}`, `{"maxResults":1,"max_results":2}`, ""},
		{"two keys for one property: neither", `{"maxResults":1,"MaxResults":2}`, `{"maxResults":1,"MaxResults":2}`, ""},
		{"one key given twice is one parameter, the last", `{"maxResults":1,"maxResults":2}`, `{"max_results":2}`, "renamed"},
		{"null given last for a key given twice", `{"max_results":1,"max_results":null,"limit":1}`, `{"limit":1}`, "null-removed"},
		{"no Unicode folding", `{"ſuery":"x"}`, `{"ſuery":"x"}`, ""},
		{"unknown stays", `{"other":1}`, `{"other":1}`, ""},
		{"null for optional non-nullable", `{"max_results":null,"limit":1}`, `{"limit":1}`, "null-removed"},
		{"null for nullable kept", `{"page":null,"limit":1}`, `{"page":null,"limit":1}`, ""},
		{"null for required kept", `{"limit":null}`, `{"limit":null}`, ""},
		{"null under another name", `{"maxResults":null}`, `{}`, "null-removed"},
		{"enum case", `{"order":"DESC"}`, `{"order":"desc"}`, "enum-case"},
		{"enum exact", `{"order":"asc"}`, `{"order":"asc"}`, ""},
		{"enum two matches: unchanged", `{"mode":"FAST"}`, `{"mode":"FAST"}`, ""},
		{"enum no match: unchanged", `{"order":"up"}`, `{"order":"up"}`, ""},
		{"enum case beside a type array", `{"unit":"Celsius"}`, `{"unit":"celsius"}`, "enum-case"},
		{"enum case beside nullable", `{"scale":"LOG"}`, `{"scale":"log"}`, "enum-case"},
		{"enum beside a union: null kept", `{"unit":null,"scale":null}`, `{"unit":null,"scale":null}`, ""},
		{"all at once", `{"maxResults":"3","order":"Asc","tags":null,"limit":2}`, `{"max_results":3,"order":"asc","limit":2}`,
			"renamed null-removed enum-case number-from-text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want map[string]any
			if err := json.Unmarshal([]byte(c.want), &want); err != nil {
				t.Fatal(err)
			}
			var rules []string
			o := Options{OnChange: func(ch Change) { rules = append(rules, ch.Rule.String()) }}
			var args map[string]any
			json.Unmarshal([]byte(c.args), &args)
			got, err := s.WithOptions(o).Coerce(args)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("Coerce(%s) = %v, %v; want %s", c.args, got, err, c.want)
			}
			if !sameSet(rules, strings.Fields(c.rules)) {
				t.Errorf("Coerce(%s) reported %q, want %q", c.args, rules, c.rules)
			}
			// A parameter under its own name, alone against its type,
			// gets what Coerce gave it (the enum rule is the type's).
			for k, v := range args {
				pt, declared := s.Lookup(k)
				if w, kept := want[k]; declared && kept {
					if got, err := ToType(v, pt); err != nil || !reflect.DeepEqual(got, w) {
						t.Errorf("ToType(%#v, %s) = %#v, %v; want %#v", v, pt, got, err, w)
					}
				}
			}
			rules = nil
			text, err := s.WithOptions(o).CoerceJSON([]byte(c.args))
			var back map[string]any
			json.Unmarshal(text, &back)
			if err != nil || !reflect.DeepEqual(back, want) {
				t.Errorf("CoerceJSON(%s) = %s, %v; want %s", c.args, text, err, c.want)
			}
			if !sameSet(rules, strings.Fields(c.rules)) {
				t.Errorf("CoerceJSON(%s) reported %q, want %q", c.args, rules, c.rules)
			}
			// Each rule has its switch, and StructuredOnly turns them off.
			for _, off := range []Options{{ExactNames: true, KeepNulls: true, ExactEnums: true}, {StructuredOnly: true}} {
				got, _ := s.WithOptions(off).CoerceJSON([]byte(c.args))
				for _, r := range []string{"renamed", "null-removed", "enum-case"} {
					if strings.Contains(c.rules, r) && string(got) != c.args && !strings.Contains(c.rules, "number-from-text") {
						t.Errorf("%+v: CoerceJSON(%s) = %s, want it unchanged", off, c.args, got)
					}
				}
			}
		})
	}
}

// Unmarshal renames to the json tags as the schema of the struct names
// them; a key that differs only by case is left to encoding/json, which
// matches it already.
func TestUnmarshalRenamesParameters(t *testing.T) {
	var in namesInput
	if err := Unmarshal([]byte(`{"maxResults":"5","calendarId":"c","Query":"q","tags":null,"limit":1}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.MaxResults != 5 || in.CalendarID != "c" || in.Query != "q" || in.Limit == nil || *in.Limit != 1 {
		t.Errorf("got %+v", in)
	}
	var changes []string
	o := Options{OnChange: func(c Change) { changes = append(changes, c.Path+" "+c.Rule.String()) }}
	var in2 namesInput
	if err := o.Unmarshal([]byte(`{"QUERY":"q","calendar-id":"c"}`), &in2); err != nil || in2.Query != "q" || in2.CalendarID != "c" {
		t.Errorf("got %+v, %v", in2, err)
	}
	if !reflect.DeepEqual(changes, []string{"/calendar_id renamed"}) {
		t.Errorf("changes %q: QUERY is encoding/json's already, calendar-id ours", changes)
	}
	var strict namesInput
	err := Options{ExactNames: true}.Unmarshal([]byte(`{"calendar-id":"c"}`), &strict)
	if err != nil || strict.CalendarID != "" {
		t.Errorf("ExactNames: got %+v, %v", strict, err)
	}
	if errors.Is(err, ErrKind) {
		t.Fatal(err)
	}
}

// The walk over text makes the edits of the rules of names and nulls as it
// meets the parameters, in the pass that converts them: a renamed key is
// written in place, a removed parameter is left out with its comma, an
// edited key's other occurrences go, and every other byte stays as sent.
func TestParametersEditedAsTheWalkMeetsThem(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"},
		"label":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}}}`)
	for _, tc := range []struct{ in, want string }{
		{`{ "Query" : "x" , "limit": "5" }`, `{ "query" : "x" , "limit": 5 }`},
		{`{"limit": 1, "label": null, "query": "x"}`, `{"limit": 1, "query": "x"}`},
		{`{"limit": "", "query": "x"}`, `{"query": "x"}`},
		{`{"label": "", "tags": []}`, `{"label": "", "tags": []}`},
		{`{"Query": "a", "limit": 2, "Query": "b"}`, `{"limit": 2, "query": "b"}`},
		{`{"Query": "a", "Limit": "2"}`, `{"query": "a", "limit": 2}`},
		{`{"Query": {"a": 1}}`, `{"query": "{\"a\":1}"}`},
	} {
		out, err := s.CoerceJSON([]byte(tc.in))
		if err != nil || string(out) != tc.want {
			t.Errorf("CoerceJSON(%s) = %s, %v; want %s", tc.in, out, err, tc.want)
		}
		if d := oneAnswer(s, []byte(tc.in)); d != "" {
			t.Error(d)
		}
	}
}

// The edits of the parameters are reported first, then the conversions in
// path order, from Coerce and CoerceJSON alike.
func TestParameterEditsReportedFirst(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"},"label":{"type":"string"}}}`)
	wantReported(t, s, `{"Limit":"5","label":null,"Query":7}`,
		"/label null-removed", "/limit renamed", "/query renamed", "/limit number-from-text", "/query number-to-text")
}

// A call the work budget stops as a whole comes back as sent, its keys
// not renamed, with nothing reported, from Coerce and CoerceJSON alike.
func TestCallStoppedWithEditsComesBackAsSent(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"query":{"type":"string"},"items":{"type":"array","items":{"anyOf":[
		{"type":"array","items":{"type":"integer"}},{"type":"array","items":{"type":"boolean"}},{"type":"array","items":{"type":"number"}},
		{"type":"array","items":{"type":"null"}},{"type":"array","items":{"type":"array"}},{"type":"array","items":{"type":"object"}},{"type":"string"}]}}}}`)
	in := `{"Query":"x","items":[` + strings.Repeat(`["1"],`, 3000) + `["2"]]}`
	var heard []Change
	o := Options{MaxWork: 100, OnChange: func(c Change) { heard = append(heard, c) }}
	if out, err := s.WithOptions(o).CoerceJSON([]byte(in)); !errors.Is(err, ErrLimit) || string(out) != in || heard != nil {
		t.Errorf("CoerceJSON: as sent %v, %v, reporting %d changes; want as sent, ErrLimit, none", string(out) == in, err, len(heard))
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if out, err := s.WithOptions(o).Coerce(m); !errors.Is(err, ErrLimit) || !reflect.DeepEqual(out, m) || heard != nil {
		t.Errorf("Coerce: as sent %v, %v, reporting %d changes; want as sent, ErrLimit, none", reflect.DeepEqual(out, m), err, len(heard))
	}
}
