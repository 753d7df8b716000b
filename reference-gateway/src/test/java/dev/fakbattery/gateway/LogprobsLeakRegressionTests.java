package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.gateway.policy.PolicyLoader;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Shrunk counterexamples of {@link AdjudicationPropertyTests} that found real leaks, kept as plain tests: logprobs
 * spell out the tokens of their chunk, so a chunk that carried a denied or transformed call's fragment must not go out
 * with its logprobs, whatever else it carried.
 */
@DisplayName("regression: logprobs never spell out a denied or transformed call")
class LogprobsLeakRegressionTests {

	private static final String DENIED_FRAGMENT = "{\\\"secret\\\": \\\"ARG3SECRETQ\\\"}";

	@Test
	@DisplayName("a denied call's last fragment in the finish chunk (vLLM <= 0.11): the finish goes out without its logprobs")
	void deniedFragmentInFinishChunk() {
		List<String> out = feed(
				"{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"call_3_IDQ\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"deny_write\",\"arguments\":\"\"}}]},\"logprobs\":null,\"finish_reason\":null}",
				"{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"" + DENIED_FRAGMENT + "\"}}]},"
						+ "\"logprobs\":{\"content\":[{\"token\":\"" + DENIED_FRAGMENT
						+ "\",\"logprob\":-0.5}]},\"finish_reason\":\"tool_calls\"}");

		assertThat(String.join("\n", out)).doesNotContain("ARG3SECRETQ")
				.doesNotContain("call_3_IDQ")
				.contains("\"logprobs\":null,\"finish_reason\":\"stop\"");
	}

	@Test
	@DisplayName("an allowed call's fragment and a transformed call's arguments in one chunk (vLLM hermes): the allowed call goes out without that chunk's logprobs")
	void transformedArgumentsInSharedChunk() {
		String transformed = "{\\\"cmd\\\": \\\"ARG1SECRETQ\\\"}";
		List<String> out = feed(
				"{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"call_0\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"allow_read\",\"arguments\":\"\"}}]},\"logprobs\":null,\"finish_reason\":null}",
				"{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}},"
						+ "{\"id\":\"call_1\",\"type\":\"function\",\"index\":1,\"function\":{\"name\":\"transform_exec\",\"arguments\":\""
						+ transformed + "\"}}]},"
						+ "\"logprobs\":{\"content\":[{\"token\":\"{}" + transformed + "\",\"logprob\":-0.5}]},\"finish_reason\":null}",
				"{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"tool_calls\"}");

		assertThat(String.join("\n", out)).doesNotContain("ARG1SECRETQ").contains("call_0").contains("{\\\"redacted\\\":true}");
	}

	private static List<String> feed(String... choices) {
		StreamAdjudicator adjudicator = new StreamAdjudicator(new CallAdjudicator(PolicyLoader.kitConvention(), new AdjudicationRecord(),
				new GatewayMetrics()));
		List<String> out = new ArrayList<>();
		for (String choice : choices) {
			String chunk = "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + choice + "]}";
			out.addAll(adjudicator.onChunk(Sse.events("data: " + chunk + "\n\n").getFirst()));
		}
		return out;
	}
}
