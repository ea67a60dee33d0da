// Command coerce brings the coercion of package
// github.com/coerce-go/coerce to shells, pipelines and MCP servers written in
// any language: it reads each value as the type a JSON Schema declares for
// it, turning "[\"a\"]" into ["a"] for an array, "5" into 5 for an integer
// and {"k":1} into "{\"k\":1}" for a string, and says why when it cannot.
//
//	coerce args --schema FILE [--tool NAME] KEY=VALUE...   arguments from the command line
//	coerce json --schema FILE [--tool NAME] < in > out     argument JSON from stdin to stdout
//	coerce value TYPE VALUE                               one value, such as list[int] '"[1,2]"'
//	coerce mcp -- COMMAND ARGS...                         a coercing proxy before a stdio MCP server
//	coerce mcp --upstream URL --listen ADDR               the same for Streamable HTTP
//
// FILE is a JSON Schema of the arguments, an MCP tool (its inputSchema is
// used), or a tools/list result (or the JSON-RPC response around one),
// from which --tool picks the tool.
//
// Exit status: 0 done; 1 the input cannot be made to fit (the feedback a
// model would get is printed on stderr, nothing on stdout); 2 the command
// line is wrong (an unknown flag, a missing --schema, a KEY the schema does
// not declare). -h prints a command's usage on stderr.
//
// # Rules we chose for KEY=VALUE
//
// Every VALUE is the string the shell gave, converted to the declared type
// by the library's rules, in one call over the whole argument object:
//
//   - limit=5 is the integer 5 and exact=yes the boolean true, where the
//     schema declares them so; name=5 stays the string "5" where a string is
//     declared. Why: the shell has only strings, and the schema, not the
//     look of the text, says what a value is. Guessing from the text (as
//     "infer the type, then coerce" tools do) turns a zip code into a number
//     and a JSON-holding string into an object.
//   - tags=a is the one-element array ["a"], and tags='["a","b"]' the array
//     the JSON text holds (Options.WrapScalars, on for args only). Why: on a
//     command line one value for a list is the common case, and writing
//     '["a"]' for it is what nobody types. tags=a,b is ["a,b"]: a comma is
//     data, not syntax, since splitting would break every value with a
//     comma in it. Repeat the key for more elements: tags=a tags=b is
//     ["a","b"]. -wrap-scalars=false turns the wrapping off.
//   - An object or array VALUE is JSON text: filter='{"max":3}'. Its members
//     are converted too, as the schema declares them ("3" becomes 3 there).
//   - KEY:=JSON takes VALUE as JSON text whatever the declared type
//     (count:=5, tags:='["a"]', note:=null), as HTTPie does. Why: a
//     parameter that declares no type has no rule to read a string by, so
//     there the string stays a string unless := says otherwise.
//   - A dotted KEY names a nested property, one object level per part:
//     filter.max=3 is {"filter":{"max":3}}. A KEY that is the whole name of a
//     top-level parameter is that parameter, dots and all (file.name=x).
//     Giving a value both whole and by its parts (filter='{}' filter.max=3)
//     is refused: one would silently win.
//   - A KEY the schema does not declare, or a dotted part that names no
//     property of its object, is refused with the declared names, status 2;
//     never dropped, and never passed through untyped. Why: a misspelt key
//     dropped or passed on is a call that silently does something else. A
//     property counts as declared when the object names it, or a
//     patternProperties or additionalProperties gives it a type; an object
//     that says nothing of other properties does not declare them.
//   - A KEY given twice is refused unless it is declared an array.
//   - Required parameters and enums are a validator's business, as in the
//     library: -check adds Schema.Check's findings, with status 1.
//
// Output is one line of JSON with sorted keys; integers keep every digit
// (12345678901234567890 stays so).
//
// # Rules we chose for json and value
//
// coerce json writes the bytes of everything that needs no change as they
// came (Schema.CoerceJSON): arguments that fit come out byte for byte, and a
// repaired value is written compact in place. Each change is reported on
// stderr, one line each ("coerce: /limit: string "5" to integer
// (number-from-text)"), so that stdout stays the data; -q silences it.
//
// coerce value reads VALUE as JSON text, and a VALUE that is not JSON as the
// string it spells: coerce value int 5 and coerce value str hello need no
// quotes, while coerce value 'list[int]' '"[1,2]"' is a string holding an
// array.
//
// # The proxy
//
// coerce mcp -- COMMAND ARGS... starts an MCP server and relays its stdio.
// Every JSON-RPC message is passed on as the bytes that came, in both
// directions: requests, responses, notifications, progress, cancellation,
// requests from the server (sampling, elicitation, roots), batches, methods
// and fields it does not know. It reads two things: the tools/list results
// the server sends (every page, whoever asked), to learn each tool's input
// schema, and the tools/call requests the client sends, whose arguments,
// and only those, it rewrites with Schema.CoerceJSON. A call that fits is
// passed on as the very bytes that came; a repaired call differs only in
// the values that were repaired.
//
// A call that cannot be made to fit ("five" for an integer) never reaches
// the server: the proxy answers it with a CallToolResult whose isError is
// set and whose text is Schema.Feedback's, the way MCP (SEP-1303) asks
// servers to report input errors, so that the model corrects its call.
//
// Rules we chose for the proxy:
//
//   - A call to a tool the proxy does not know makes it list the tools
//     itself first (tools/list requests of its own, with ids
//     "coerce-mcp-proxy-N", every page; their responses are not passed on),
//     and a call to a tool that does not exist then goes on unchanged, for
//     the server to answer. Why: a client may call without listing, may stop
//     after a page, and under MCP 2026-07-28 is told of changes only if it
//     subscribed; waiting for list_changed would coerce nothing. The listing
//     carries the call's _meta (less its progress token), which a stateless
//     server needs to know the protocol version.
//   - notifications/tools/list_changed forgets every schema: a tool may
//     have been replaced under its name, and its old schema would break
//     calls that fit the new one.
//   - A positive ttlMs (SEP-2549) on a tools/list result expires its
//     schemas; 0, which go-sdk sends on every list, is read as no hint,
//     since read to the letter it would cost a listing before every call.
//   - A tool whose input schema does not compile, and a call the proxy
//     cannot parse, pass on as they came: the proxy never makes a call fail
//     that the server would have taken.
//   - Logs of repairs and rejections go to stderr (which hosts keep as the
//     server's log) or to the file -log names; never to stdout, which
//     carries the protocol. The server's own stderr passes through.
//   - The proxy exits when either side closes: when the client closes its
//     stdin, the server's stdin is closed, then after 5 s it gets SIGTERM,
//     then SIGKILL, as MCP's stdio transport describes; the proxy exits
//     with the server's status (128+N for a signal N). SIGINT and SIGTERM
//     sent to the proxy are passed to the server.
//   - In a batch, each message is handled alone; the proxy's answers to
//     the calls it refused go back as a batch of their own (over HTTP,
//     added to the server's).
//
// coerce mcp --upstream URL --listen ADDR does the same for Streamable HTTP.
// It also recomputes, from the coerced arguments, the Mcp-Param-* headers
// that mirror parameters annotated x-mcp-header (SEP-2243): the server
// refuses a call whose headers differ from its body (-32020), which every
// repaired call's would. A -32020 from the server makes the proxy list the
// tools again before the next call. The proxy keeps one registry of schemas
// per Mcp-Session-Id.
package main
