package nearjson

// The chat-template tokens that models leak around a tool call's arguments,
// from the prompt formats of ChatML (Qwen, Hermes), Llama 3, Mistral,
// Phi, gpt-oss (harmony) and the <tool_call> tags of Hermes-style tool
// calling. The list is closed on purpose: an unknown tag is an error, not a
// guess. Tokens are removed only at the very start or end of the text
// (with whitespace between them), never inside it, where they might be
// content. Longer tokens come first, so that a token that begins another
// is tried after it.
var prefixTokens = []string{
	"<|start_header_id|>assistant<|end_header_id|>",
	"<|im_start|>assistant",
	"<|start|>assistant",
	"<|begin_of_text|>",
	"<|im_start|>",
	"<|python_tag|>",
	"<|tool_call|>",
	"<|assistant|>",
	"[TOOL_CALLS]",
	"<tool_call>",
	"<|message|>",
	"<s>",
}

var suffixTokens = []string{
	"<|end_of_text|>",
	"<|endoftext|>",
	"<|im_end|>",
	"<|eot_id|>",
	"<|eom_id|>",
	"</tool_call>",
	"<|call|>",
	"<|end|>",
	"</s>",
}
