package dev.fakbattery.conformance.wire;

import java.util.List;

/** The engine dialects the kit knows. */
final class WireConformanceKitEngines {

	static final List<String> ALL = List.of("vllm", "sglang");

	private WireConformanceKitEngines() {
	}
}
