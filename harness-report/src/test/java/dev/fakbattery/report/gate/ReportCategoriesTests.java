package dev.fakbattery.report.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The report's categories keep the kit's outcomes apart: each message lands in its own category, and in no other. */
@DisplayName("report categories: NOT_JUDGED, NOT_CLAIMED and a plain skip each in their own category")
class ReportCategoriesTests {

	@Test
	@DisplayName("a skipped rule run is categorised by how its message begins: NOT_CLAIMED, NOT_JUDGED, PENDING_MEASUREMENT, or not applicable")
	void skippedRunsApart() throws Exception {
		assertThat(categories("NOT_CLAIMED: W03 is of the adjudication class, which the gateway does not claim (gateway.classes=relay), "
				+ "so this failure fails nothing: W03 [vllm stream] on relay: expected no denied call", "skipped"))
				.singleElement()
				.asString()
				.startsWith("NOT_CLAIMED");
		assertThat(categories("NOT_JUDGED: W01 [vllm stream]: nothing reached the kit's upstream", "skipped")).singleElement()
				.asString()
				.startsWith("NOT_JUDGED");
		assertThat(categories("non-stream", "skipped")).containsExactly("Skipped: not applicable (with reason)");
		assertThat(categories("W01 [vllm stream] on relay: expected upstream model", "failed")).singleElement()
				.asString()
				.startsWith("Product failures");
	}

	/** The names of the categories a result with {@code message} and {@code status} matches, as Allure matches them. */
	private static List<String> categories(String message, String status) throws Exception {
		List<String> names = new ArrayList<>();
		for (JsonNode category : Json.MAPPER.readTree(ReportEnvironment.CATEGORIES)) {
			boolean statusMatches = false;
			for (JsonNode matched : category.path("matchedStatuses")) {
				statusMatches |= matched.asText().equals(status);
			}
			boolean messageMatches = !category.has("messageRegex") || Pattern.matches(category.path("messageRegex").asText(), message);
			if (statusMatches && messageMatches) {
				names.add(category.path("name").asText());
			}
		}
		return names;
	}
}
