package dev.fakbattery.engine;

import java.io.IOException;

import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One instant vLLM double and one instant SGLang double (5 completion tokens) for a test class.
 */
abstract class InstantDoubles {

	static EngineDouble vllm;

	static EngineDouble sglang;

	@BeforeAll
	static void start() throws IOException {
		vllm = EngineDouble.builder().timing(TimingModel.instant()).completionTokens(5).start();
		sglang = EngineDouble.builder().dialect(Dialect.SGLANG).timing(TimingModel.instant()).completionTokens(5).start();
	}

	@AfterAll
	static void stop() {
		vllm.close();
		sglang.close();
	}

	static String chat(EngineDouble engine) {
		return engine.baseUrl() + "/chat/completions";
	}
}
