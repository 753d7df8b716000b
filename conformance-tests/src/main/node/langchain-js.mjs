// C04: LangChain.js's ChatOpenAI, as its documentation reads answers: tools bound with `bindTools`; `invoke` for a
// whole answer; `stream`, adding the AIMessageChunks together (`concat`). The message's `tool_calls` (arguments parsed
// into `args`; unparseable ones in `invalid_tool_calls`), `response_metadata.finish_reason` and
// `usage_metadata.output_tokens` are the reading.
import { ChatOpenAI } from '@langchain/openai';
import { concat } from '@langchain/core/utils/stream';
import { API_KEY, answer, main, tools } from './kit-io.mjs';

async function read(url, request, headers) {
	const model = new ChatOpenAI({ model: request.model, apiKey: API_KEY, configuration: { baseURL: url, defaultHeaders: headers }, maxRetries: 0, timeout: 30_000,
		temperature: request.temperature, maxTokens: request.max_tokens, streamUsage: true });
	const bound = model.bindTools(tools(request).map(t => ({ type: 'function', function: { name: t.name, parameters: t.parameters } })),
		{ tool_choice: request.tool_choice });
	let message;
	if (!request.stream) {
		message = await bound.invoke(request.messages);
	}
	else {
		for await (const chunk of await bound.stream(request.messages)) {
			message = message === undefined ? chunk : concat(message, chunk);
		}
	}
	const calls = [...(message.tool_calls ?? []).map(c => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.args) })),
		...(message.invalid_tool_calls ?? []).map(c => ({ id: c.id, name: c.name, arguments: c.args }))];
	const content = typeof message.content === 'string' ? message.content : message.content.map(p => p.text ?? '').join('');
	return answer(content, calls, message.response_metadata?.finish_reason, message.usage_metadata?.output_tokens);
}

await main(read);
