package dev.fakbattery.gateway;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

/**
 * Generated tool-call streams for the properties: each call has a unique id ({@code call_<n>_IDQ}) and arguments
 * carrying a unique secret ({@code ARG<n>SECRETQ}), streamed in the dialect's delta shape with the arguments cut into
 * fragments at the given points, calls one after another (parallel calls, dense indexes), then the finish and
 * {@code [DONE]}; optional content before the calls. The shapes the engines are known to send vary per call: the
 * first fragment in the call's opening delta (SGLang), the opening delta in the same chunk as the previous call's last
 * fragment (vLLM hermes, several entries per chunk), the last fragment in the finish chunk (vLLM &le; 0.11), and
 * logprobs that spell out each argument fragment (asked with {@code logprobs:true}).
 */
final class ToolStreams {

	/** One planned call: its tool name and where its arguments text is cut into fragments. */
	record Call(int n, String name, List<Integer> cuts, boolean argumentsInFirst, boolean sharesChunk, boolean lastInFinish,
			boolean logprobs) {

		String id() {
			return "call_" + n + "_IDQ";
		}

		String secret() {
			return "ARG" + n + "SECRETQ";
		}

		String arguments() {
			return "{\"secret\": \"" + secret() + "\", \"path\": \"/p" + n + "\"}";
		}

		List<String> fragments() {
			String text = arguments();
			List<String> fragments = new ArrayList<>();
			int from = 0;
			for (int cut : cuts.stream().map(c -> c % (text.length() + 1)).sorted().toList()) {
				if (cut > from) {
					fragments.add(text.substring(from, cut));
					from = cut;
				}
			}
			fragments.add(text.substring(from));
			return fragments;
		}
	}

	private ToolStreams() {
	}

	/** The calls a plan of numbers describes: each number picks a name from {@code names} and its argument cuts. */
	static List<Call> calls(List<Integer> plan, List<String> names) {
		List<Call> calls = new ArrayList<>();
		for (int i = 0; i < plan.size(); i++) {
			int v = plan.get(i);
			List<Integer> cuts = List.of(v >>> 4 & 0x3f, v >>> 10 & 0x3f, v >>> 16 & 0x3f).subList(0, (v >>> 22) % 4);
			calls.add(new Call(i, names.get(Math.floorMod(v, names.size())), cuts, (v >>> 26 & 1) == 1, i > 0 && (v >>> 27 & 1) == 1,
					i == plan.size() - 1 && (v >>> 28 & 1) == 1, (v >>> 29 & 1) == 1));
		}
		return calls;
	}

	/** The whole SSE body of a stream proposing {@code calls}, with {@code content} first when not empty. */
	static String sse(Dialect dialect, List<Call> calls, String content) {
		StringBuilder out = new StringBuilder();
		out.append(event(chunk(dialect, delta(dialect).put("role", "assistant").put("content", ""), null)));
		if (!content.isEmpty()) {
			out.append(event(chunk(dialect, delta(dialect).put("content", content), null)));
		}
		List<List<ObjectNode>> chunks = new ArrayList<>();
		List<ObjectNode> finishDeltas = new ArrayList<>();
		for (int index = 0; index < calls.size(); index++) {
			Call call = calls.get(index);
			List<String> fragments = new ArrayList<>(call.fragments());
			ObjectNode first = first(dialect, call, index);
			if (call.argumentsInFirst()) {
				((ObjectNode) first.get("function")).put("arguments", fragments.removeFirst());
			}
			if (call.sharesChunk() && !chunks.isEmpty()) {
				chunks.getLast().add(first);
			}
			else {
				chunks.add(new ArrayList<>(List.of(first)));
			}
			for (int f = 0; f < fragments.size(); f++) {
				ObjectNode later = later(dialect, index, fragments.get(f));
				if (call.lastInFinish() && f == fragments.size() - 1) {
					finishDeltas.add(later);
				}
				else {
					chunks.add(new ArrayList<>(List.of(later)));
				}
			}
		}
		for (List<ObjectNode> deltas : chunks) {
			out.append(event(chunk(dialect, toolDeltas(dialect, deltas), null, spelled(calls, deltas))));
		}
		out.append(event(chunk(dialect, finishDeltas.isEmpty() ? delta(dialect) : toolDeltas(dialect, finishDeltas),
				calls.isEmpty() ? "stop" : "tool_calls", spelled(calls, finishDeltas))));
		return out.append("data: [DONE]\n\n").toString();
	}

	private static ObjectNode first(Dialect dialect, Call call, int index) {
		ObjectNode delta = Json.MAPPER.createObjectNode();
		delta.put("id", call.id());
		if (dialect == Dialect.SGLANG) {
			delta.put("index", index).put("type", "function");
		}
		else {
			delta.put("type", "function").put("index", index);
		}
		delta.putObject("function").put("name", call.name()).put("arguments", "");
		return delta;
	}

	private static ObjectNode later(Dialect dialect, int index, String fragment) {
		ObjectNode delta = Json.MAPPER.createObjectNode();
		if (dialect == Dialect.SGLANG) {
			delta.putNull("id");
			delta.put("index", index).put("type", "function");
			delta.putObject("function").putNull("name").put("arguments", fragment);
		}
		else {
			delta.put("index", index);
			delta.putObject("function").put("arguments", fragment);
		}
		return delta;
	}

	private static ObjectNode delta(Dialect dialect) {
		ObjectNode delta = Json.MAPPER.createObjectNode();
		if (dialect == Dialect.SGLANG) {
			delta.putNull("role").putNull("content").putNull("reasoning_content");
		}
		return delta;
	}

	private static ObjectNode toolDeltas(Dialect dialect, List<ObjectNode> calls) {
		ObjectNode delta = delta(dialect);
		delta.putArray("tool_calls").addAll(calls);
		return delta;
	}

	/** The argument fragments of the chunk's deltas whose call spells its logprobs out, or null for none. */
	private static String spelled(List<Call> calls, List<ObjectNode> deltas) {
		StringBuilder tokens = new StringBuilder();
		for (ObjectNode delta : deltas) {
			if (calls.get(delta.get("index").asInt()).logprobs()) {
				tokens.append(delta.path("function").path("arguments").asText(""));
			}
		}
		return tokens.isEmpty() ? null : tokens.toString();
	}

	private static String chunk(Dialect dialect, ObjectNode delta, String finish) {
		return chunk(dialect, delta, finish, null);
	}

	private static String chunk(Dialect dialect, ObjectNode delta, String finish, String logprobTokens) {
		ObjectNode chunk = Json.MAPPER.createObjectNode();
		chunk.put("id", dialect == Dialect.SGLANG ? "5f0c9b7d2e6a4c1f8b3d7e9a0c2f4b61" : "chatcmpl-property");
		chunk.put("object", "chat.completion.chunk").put("created", 1790507312).put("model", "m");
		ObjectNode choice = chunk.putArray("choices").addObject();
		choice.put("index", 0).set("delta", delta);
		if (logprobTokens == null) {
			choice.putNull("logprobs");
		}
		else {
			choice.putObject("logprobs").putArray("content").addObject().put("token", logprobTokens).put("logprob", -0.5);
		}
		if (finish == null) {
			choice.putNull("finish_reason");
		}
		else {
			choice.put("finish_reason", finish);
		}
		return WireJson.write(chunk);
	}

	private static String event(String data) {
		return "data: " + data + "\n\n";
	}
}
