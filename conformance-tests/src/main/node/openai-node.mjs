// C02: the official OpenAI Node SDK, as its README reads answers: `chat.completions.create` for a whole answer;
// for a stream, the `chat.completions.stream` helper (helpers.md), iterating the chunks and taking
// `finalChatCompletion()`, which assembles the tool calls.
import OpenAI from 'openai';
import { API_KEY, answer, main } from './kit-io.mjs';

async function read(url, request, headers) {
	const client = new OpenAI({ baseURL: url, apiKey: API_KEY, defaultHeaders: headers, maxRetries: 0, timeout: 30_000 });
	const { stream, ...body } = request;
	if (!stream) {
		return view(await client.chat.completions.create(body), null);
	}
	const runner = client.chat.completions.stream(body);
	let content = '';
	for await (const chunk of runner) {
		for (const choice of chunk.choices ?? []) {
			content += choice.delta?.content ?? '';
		}
	}
	return view(await runner.finalChatCompletion(), content);
}

function view(completion, streamedContent) {
	const choice = completion.choices[0];
	const calls = (choice.message.tool_calls ?? []).map(c => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
	return answer(streamedContent ?? choice.message.content, calls, choice.finish_reason, completion.usage?.completion_tokens);
}

await main(read);
