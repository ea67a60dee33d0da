// Package nearjson repairs text that is almost JSON into JSON, and refuses
// everything whose reading is not certain. Models write such text where an
// object or array was declared and as the whole argument text of a tool
// call: Python literals ({'k': True, 'n': None}), single quotes, trailing
// commas, unquoted keys, comments, invalid escapes ("C:\path") and the
// chat-template tokens of their own prompt format around it.
//
// [Repair] reads the text once, left to right, never backtracking, and
// writes JSON as it goes. Valid JSON comes back as the same bytes, with no
// fixes. Anything else comes back as valid JSON (RFC 8259) together with
// the [Fixes] it took, or as an [*Error] with the offset and the reason.
//
// The rules are those of a reader that must not guess. Unlike the repair
// libraries written for display, this package never completes text: an
// unterminated string, array, object, comment or number is an error, so a
// tool call cut off by a token limit is never executed with shortened
// arguments. A quote that could end a string or belong to it ('it's',
// "say "hi"") ends it, and the text that follows is then an error: the
// string is never stretched to fit. Numbers are JSON's own: 1_000, NaN,
// Infinity, 0x10, 0o7, 01, +1, .5 and 1. are refused, and the digits of
// the numbers kept are copied, never rounded. Nothing is inserted that the
// text did not hold: no missing comma, colon, value or bracket.
//
// The repairs:
//
//   - template-token: chat-template tokens before or after the whole text
//     (<|im_start|>assistant, <tool_call>, </tool_call>, <|python_tag|>,
//     <|eot_id|> and the rest of the closed list in tokens.go), never
//     inside it.
//   - comment: // and # to the end of the line, /* */; outside strings. In
//     Python-literal text, // right after a value is refused (see below).
//   - python-literal: the bare words True, False and None, outside strings.
//   - single-quote: strings in single quotes; a " inside is escaped and \'
//     unescaped.
//   - unquoted-key: object keys that are identifiers (ASCII letters,
//     digits, _ and $, not starting with a digit).
//   - trailing-comma: one comma before ] or }. Two commas in a row, or a
//     comma right after [ or {, are errors.
//   - invalid-escape: a backslash before a character that has no escape in
//     JSON stands for itself (C:\path, \d+), and \' is '. Escapes that
//     Python or JavaScript read as something else (\x41, \0, \7, \a, \v,
//     \U0001F600, \N{...}, \u{...}, a backslash before a line break) are
//     errors. So is a string that holds both such a backslash and a JSON
//     escape (\n, \t, \b, \\, \u00e9): its writer did not escape
//     backslashes, so "C:\Users\new" may mean a line break or a folder.
//   - control-character: a raw tab, line break or other control character
//     inside a string is escaped.
//
// The core calls Repair where JSON text was expected and the text is not
// JSON: a parameter declared object or array whose value is a string, and
// the whole argument text of CoerceJSON and Unmarshal. It names the fixes
// in its change report and, on an error, keeps the value unchanged and
// reports the reason and offset, saying "truncated" when Truncated is set.
//
// Decisions: # starts a comment, as in Python and YAML, since a model that
// writes Python literals writes Python comments, and # is never JSON outside
// a string. In Python, though, // is floor division: right after a value,
// in text that holds anywhere a string in single quotes, True, False, None
// or a # comment, a // is refused at its offset, since {'offset': 100//4}
// is 25 to Python and 100 to a reader of comments. Where a value cannot end
// (after a bracket opens, a comma or a colon), or in text with no sign of
// Python, // is a comment. Numbers are JSON's grammar exactly (no .5, no +1,
// no 1.): their value is then never in doubt, and the core converts numeric
// strings elsewhere. Valid JSON is what encoding/json.Valid accepts, and
// comes back untouched even where this package would refuse it (invalid
// UTF-8 inside a string, nesting beyond MaxDepth).
package nearjson
