package dev.fakbattery.bench.headtohead;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

/**
 * One engine of a head-to-head comparison, with the disclosure every row must carry: precision
 * and batching regime. A row without them is refused, so no engine is compared without saying
 * under which conditions it was measured.
 *
 * <pre>
 * -Dengine.compare="vllm=http://h:8000/v1,precision=fp8,batching=continuous;sglang=http://h:30000/v1,precision=fp8,batching=continuous"
 * </pre>
 *
 * @since 0.1
 */
public record EngineRow(String engine, URI baseUrl, String precision, String batching) {

	static final String FIX = "Fix: write each row as ENGINE=http://HOST:PORT/v1,precision=<fp8|bf16|...>,batching=<continuous|static|...>, "
			+ "rows separated by ';'.";

	/** The rows of {@code engine.compare}, empty when it is unset. */
	public static List<EngineRow> parse(HarnessConfig config) {
		return config.string(HarnessConstants.ENGINE_COMPARE).map(EngineRow::parse).orElse(List.of());
	}

	static List<EngineRow> parse(String value) {
		List<EngineRow> rows = new ArrayList<>();
		for (String row : value.split(";")) {
			if (!row.isBlank()) {
				rows.add(row(value, row.trim()));
			}
		}
		return List.copyOf(rows);
	}

	private static EngineRow row(String value, String row) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String field : row.split(",")) {
			int equals = field.indexOf('=');
			if (equals <= 0) {
				throw refused(value, row, "field [" + field.trim() + "] is not name=value");
			}
			fields.put(field.substring(0, equals).trim(), field.substring(equals + 1).trim());
		}
		String engine = fields.keySet().iterator().next();
		String url = fields.remove(engine);
		for (String required : List.of("precision", "batching")) {
			if (fields.getOrDefault(required, "").isEmpty()) {
				throw refused(value, row, "it does not disclose its " + required);
			}
		}
		if (!url.matches("https?://[^/]+(/.*)?/v1/?")) {
			throw refused(value, row, "[" + url + "] is not an http(s) URL ending in /v1");
		}
		return new EngineRow(engine, URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url),
				fields.get("precision"), fields.get("batching"));
	}

	private static ConfigurationException refused(String value, String row, String why) {
		return new ConfigurationException("Unable to parse " + HarnessConstants.ENGINE_COMPARE + " value [" + value
				+ "]: row [" + row + "] is refused: " + why + ". " + FIX);
	}
}
