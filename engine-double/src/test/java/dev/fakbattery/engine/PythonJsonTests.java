package dev.fakbattery.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Python json.dumps rendering and argument fragments")
class PythonJsonTests {

	@Test
	@DisplayName("default separators, nested values, empty containers")
	void spacing() {
		String json = "{\"a\":1,\"b\":[1,2,{\"c\":null}],\"d\":{},\"e\":[],\"f\":true,\"g\":\"x y\"}";

		assertThat(PythonJson.dumps(WireShapes.parse(json)))
				.isEqualTo("{\"a\": 1, \"b\": [1, 2, {\"c\": null}], \"d\": {}, \"e\": [], \"f\": true, \"g\": \"x y\"}");
	}

	@Test
	@DisplayName("ensure_ascii escapes in lower-case hex, surrogate pairs for astral characters; UTF-8 kept otherwise")
	void ascii() {
		var node = WireShapes.parse("{\"p\":\"café 😀\",\"q\":\"a\\\\u00E9\\n\"}");

		assertThat(PythonJson.dumpsAscii(node)).isEqualTo("{\"p\": \"caf\\u00e9 \\ud83d\\ude00\", \"q\": \"a\\\\u00E9\\n\"}");
		assertThat(PythonJson.dumps(node)).isEqualTo("{\"p\": \"café 😀\", \"q\": \"a\\\\u00E9\\n\"}");
	}

	@Test
	@DisplayName("vLLM fragments are tokenizer-like pieces of the raw text and concatenate back to it")
	void vllmFragments() {
		String arguments = "{\"city\": \"Paris\", \"unit\": \"celsius\"}";

		assertThat(ArgumentFragments.tokens(arguments))
				.containsExactly("{\"", "city", "\":", " \"", "Paris", "\",", " \"", "unit", "\":", " \"", "celsius", "\"}");
		assertThat(String.join("", ArgumentFragments.tokens("a\\u00e9 b\\\"c  "))).isEqualTo("a\\u00e9 b\\\"c  ");
	}

	@Test
	@DisplayName("SGLang fragments follow its JSON detector: key with opening quote, words, closing quote on the last word")
	void sglangFragments() {
		var args = WireShapes.parse("{\"city\":\"Paris\",\"unit\":\"celsius\",\"days\":3,\"tags\":[\"a\"]}");

		assertThat(ArgumentFragments.sglang(args))
				.containsExactly("{\"city\": \"", "Paris\"", ", \"unit\": \"", "celsius\"", ", \"days\": 3, \"tags\": [\"a\"]}");
		assertThat(ArgumentFragments.sglang(WireShapes.parse("{\"city\":\"Paris\",\"unit\":\"celsius\"}")))
				.containsExactly("{\"city\": \"", "Paris\"", ", \"unit\": \"", "celsius\"}");
		assertThat(ArgumentFragments.sglang(WireShapes.parse("{}"))).containsExactly("{}");
	}
}
