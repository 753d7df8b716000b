package dev.fakbattery.bench.container;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A launcher that starts nothing: it records the specs and env it got and hands out fixed URLs, or fails. */
final class FakeLauncher implements EngineLauncher {

	final List<EngineContainerSpec> started = new ArrayList<>();
	final List<Map<String, String>> envs = new ArrayList<>();
	final List<FakeEngine> engines = new ArrayList<>();
	private final RuntimeException failure;

	private FakeLauncher(RuntimeException failure) {
		this.failure = failure;
	}

	static FakeLauncher healthy() {
		return new FakeLauncher(null);
	}

	static FakeLauncher failing(RuntimeException failure) {
		return new FakeLauncher(failure);
	}

	@Override
	public RunningEngine start(EngineContainerSpec spec, Map<String, String> env) {
		started.add(spec);
		envs.add(env);
		if (failure != null) {
			throw failure;
		}
		FakeEngine engine = new FakeEngine(URI.create("http://127.0.0.1:" + (32770 + engines.size()) + "/v1"));
		engines.add(engine);
		return engine;
	}

	static final class FakeEngine implements RunningEngine {

		private final URI baseUrl;
		int closed;

		FakeEngine(URI baseUrl) {
			this.baseUrl = baseUrl;
		}

		@Override
		public URI baseUrl() {
			return baseUrl;
		}

		@Override
		public void close() {
			closed++;
		}
	}
}
