package dev.fakbattery.bench.swebench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

/** fak's committed run contract, copied under {@code src/test/resources/swebench}. */
final class SeedContract {

	private SeedContract() {
	}

	static JsonNode read() {
		try (InputStream in = SeedContract.class.getResourceAsStream("/swebench/seed-raw-vllm-vs-fak-gateway-contract.json")) {
			return Json.MAPPER.readTree(in);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
