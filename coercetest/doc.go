// Package coercetest checks, from a tool's own unit tests, that the
// arguments real clients send reach the tool as it declared them once
// coerce has repaired them.
//
// MCP clients and workflow engines break arguments in a few known ways: an
// array arrives as JSON text, an integer as "5", a boolean as "true", a
// nullable parameter as "", and a string parameter that holds JSON text
// arrives already parsed; and they do so at any depth, to the id of each
// task of a list as much as to a top-level limit. Package coerce repairs
// each of these before dispatch. This package replays them: from one set
// of valid arguments it makes every broken form the declared types admit,
// coerces each, and reports the ones that do not come back as the valid
// arguments.
//
// A downstream test is one line per valid argument set:
//
//	func TestSearchArguments(t *testing.T) {
//		schema, err := coerce.ParseSchema(searchInputSchema)
//		if err != nil {
//			t.Fatal(err)
//		}
//		coercetest.AssertRepairs(t, schema, map[string]any{
//			"query":   "go generics",
//			"limit":   10,
//			"tags":    []string{"go", "generics"},
//			"verbose": true,
//		})
//	}
//
// [AssertRepairs] first checks that the valid arguments come back from
// [coerce.Schema.Coerce] as they are, then that each broken form comes back
// as the valid arguments. It reports every failure with t.Errorf, naming
// the broken form and showing what was sent and what coercion made of it.
// Had the schema declared tags a string by mistake, the test would say,
// among others:
//
//	coercetest: variant "limit/integer-as-string" (Coerce):
//		args: {"limit":"10","query":"go generics","tags":["go","generics"],"verbose":true}
//		coerced arguments differ:
//			/tags: want ["go","generics"], got "[\"go\",\"generics\"]"
//
// SDKs that hand arguments over as raw bytes, such as the official Go MCP
// SDK, use [AssertRepairsJSON], which sends each form as JSON text through
// [coerce.Schema.CoerceJSON] instead. [Check] and [CheckJSON] do the same
// work and return the failures as one error, nil when every form is
// repaired, as [testing/fstest.TestFS] does: for a test that wants to
// decide itself what to do with them, or code outside package testing.
// Their errors are plain errors, joined: they are meant to be read, and a
// program that wants the broken arguments themselves has them from
// [Variants].
//
// # Variants
//
// [Variants] makes the broken forms. It reads the declared types through
// the public [coerce.Type]: [coerce.Type.Kind], [coerce.Type.Members] of
// a union, [coerce.Type.Property] of an object, [coerce.Type.Item] of an
// array. It breaks each parameter, and each value inside it, in these
// forms:
//
//	array-as-json-text                  ["a","b"] sent as the text `["a","b"]` (JavaScript's JSON.stringify)
//	array-as-spaced-json-text           ... as `["a", "b"]` (Python's json.dumps: spaces, non-ASCII as \u escapes)
//	array-as-indented-json-text         ... as indented text with a final newline (pretty-printed model output)
//	array-as-double-encoded-json-text   ... as `"[\"a\",\"b\"]"` (JSON text encoded once more)
//	array-as-fenced-json-text           ... as a ```json markdown fence around indented text (model output)
//	object-as-...                       the same five forms for an object
//	integer-as-string                   5 sent as "5" (a value declared integer)
//	number-as-string                    2.5 sent as "2.5" (declared number)
//	boolean-as-string                   true sent as "true"
//	boolean-as-python-string            true sent as "True" (Python's str)
//	boolean-as-number                   true sent as 1
//	null-as-empty-string                null sent as "" (form fields, template engines)
//	null-as-string                      null sent as "null" (JavaScript's String)
//	json-text-as-object                 a string holding `{"id":"1"}` sent as the object
//	json-text-as-array                  a string holding `["a"]` sent as the array
//	string-as-number                    a string holding "5" sent as 5
//	string-as-boolean                   a string holding "true" sent as true
//
// A variant is named by the JSON Pointer of the value it breaks, without
// the leading "/", then "/" and the form: "limit/integer-as-string" breaks
// the parameter limit, "tasks/0/id/integer-as-string" the id of the first
// element of tasks, and "labels/bug/array-as-json-text" the array under
// the key bug of the object labels. The form is the last segment; "/" and
// "~" in a key are escaped as in a JSON Pointer ("~1", "~0").
//
// A form is made only where package coerce documents that it repairs it,
// and only where the declared types say the repair gives back the valid
// value. So a value declared "string | list[string]" gets no
// array-as-json-text, because that text is already a valid string;
// "boolean | integer" gets no integer-as-string for 1, because coercion
// tries the boolean first and makes "1" true; and a value declared any,
// and everything inside it, gets nothing. No variant conforms to the
// schema as sent ([coerce.Type.Conforms]): one that did would test
// nothing.
//
// Inside a union, a container meets each member of its kind, and Variants
// breaks a value inside it only where the outcome does not depend on the
// member coercion chooses: every member the valid container conforms to
// must repair the broken one into the same value, and every other member
// must certainly fail on it. Members that tell objects apart by required,
// additionalProperties: false or const, which the public Type does not
// show, then cannot change the outcome, provided valid is valid against
// the schema as a validator judges it, keywords included: the member it is
// valid against is a candidate for the broken value too, and repairs it.
// An argument set that is not valid in that sense may make Check report
// failures that are not coercion's.
//
// # Combinations
//
// After the single forms come combinations, named by joining their parts
// with "+": every pair of broken parameters, each in its first form; then
// rounds, in which every broken value of
// every parameter takes its next form at once, until each form has been in
// one. In a round, a container sent as JSON text is written as the values
// inside it were broken, so the text itself holds "5" for an integer, as a
// client sends it that stringifies every value and then the whole
// argument: {"tasks": "[{\"id\":\"5\"}]"}. A part whose repair would not
// be certain beside the others is left out of the round.
//
// # Bounds and order
//
// The number of variants grows with the schema, not with the arguments.
// Within an array, an element is broken only where no earlier element of
// the same array took the same route through the declared types: the
// elements of a list all take the same route, while tuple positions of
// different types, and elements that conform to different members of a
// union, take routes of their own. So an array of a thousand tasks gives
// the variants of one task, and of one more for each other member of a
// union that its elements conform to. The values under keys that an object
// type does not name (additionalProperties) are likewise broken once,
// under their first key. At most 32 values inside one parameter are
// broken, the first in document order, and Variants gives up a form of a
// route after it has failed to make it certain for 4 values. Pairs number
// n(n-1)/2 for n broken parameters, and rounds at most five, the forms of
// a container.
//
// The order is fixed: single forms by parameter name, within a parameter
// in document order (a container before the values inside it, object keys
// sorted, array indices ascending) and by form in the order listed above;
// then the pairs, in order of their parameters; then the rounds.
//
// # What is not generated
//
//   - Values coercion cannot repair ("five" for an integer, 5.5 for an
//     integer): a variant must come back as the valid arguments. To test
//     what a tool does with arguments coercion rejects, call Coerce.
//   - Broken keys (a missing, extra or differently cased key): coercion
//     matches keys exactly and neither adds nor removes them.
//   - Forms whose repair would not give back the valid value exactly: a
//     number whose text would read back as another float64
//     (0.30000000000000000001), or a string that coercion would write back
//     otherwise ("05" sent as 5 comes back "5").
//   - What only non-default Options repair or change: Variants assumes the
//     default Options. A schema built with StructuredOnly leaves the scalar
//     forms unrepaired, and one with WrapScalars may wrap them into arrays.
//
// # Comparison
//
// The result of coercion and the wanted arguments are compared as JSON:
// both are encoded and decoded again, and then compared value by value,
// numbers by exact decimal value. So int 5, float64 5 and json.Number "5.0"
// are equal, while 9007199254740992 and 9007199254740993 are not. Strings
// compare exactly, except that for json-text-as-object and
// json-text-as-array the wanted text is the one coercion writes (compact,
// keys sorted; see Variant.Want), which may differ in spacing and key order
// from the valid text.
package coercetest
