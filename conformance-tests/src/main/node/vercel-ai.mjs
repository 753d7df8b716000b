// C03: the Vercel AI SDK with its OpenAI-compatible provider, as its documentation reads answers: `generateText`
// (text, toolCalls, finishReason, usage); `streamText`, iterating `fullStream` (text-delta, tool-call, finish and error
// parts). Tools are offered without `execute`, so the calls come back unexecuted; the SDK parses each call's arguments
// (`input`), and `rawFinishReason` is the server's finish_reason.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { API_KEY, answer, main, tools } from './kit-io.mjs';

function options(url, request, headers) {
	const provider = createOpenAICompatible({ name: 'kit', baseURL: url, apiKey: API_KEY, headers, includeUsage: true });
	const offered = Object.fromEntries(tools(request).map(t => [t.name, tool({ inputSchema: jsonSchema(t.parameters) })]));
	return { model: provider.chatModel(request.model), messages: messages(request.messages), tools: offered,
		toolChoice: request.tool_choice, maxOutputTokens: request.max_tokens, temperature: request.temperature, maxRetries: 0 };
}

/** The kit's OpenAI messages as the SDK's model messages. */
function messages(openai) {
	const names = {};
	return openai.map(m => {
		if (m.role === 'assistant') {
			const calls = (m.tool_calls ?? []).map(c => {
				names[c.id] = c.function.name;
				return { type: 'tool-call', toolCallId: c.id, toolName: c.function.name, input: JSON.parse(c.function.arguments) };
			});
			return { role: 'assistant', content: [...(m.content ? [{ type: 'text', text: m.content }] : []), ...calls] };
		}
		if (m.role === 'tool') {
			return { role: 'tool', content: [{ type: 'tool-result', toolCallId: m.tool_call_id, toolName: m.name ?? names[m.tool_call_id],
				output: { type: 'text', value: m.content } }] };
		}
		return { role: m.role, content: m.content };
	});
}

function call(c) {
	return { id: c.toolCallId, name: c.toolName, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) };
}

async function read(url, request, headers) {
	if (!request.stream) {
		const result = await generateText(options(url, request, headers));
		return answer(result.text, result.toolCalls.map(call), result.rawFinishReason, result.usage.outputTokens);
	}
	const result = streamText({ ...options(url, request, headers), onError: () => {} });
	let content = '';
	const calls = [];
	let finish = null;
	let tokens = null;
	for await (const part of result.fullStream) {
		switch (part.type) {
			case 'text-delta': content += part.text; break;
			case 'tool-call': calls.push(call(part)); break;
			case 'finish': finish = part.rawFinishReason; tokens = part.totalUsage.outputTokens; break;
			case 'error': throw part.error;
			default:
		}
	}
	return answer(content, calls, finish, tokens);
}

await main(read);
