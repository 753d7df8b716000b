package dev.fakbattery.bench.tax;

import static dev.fakbattery.bench.tax.Synthetic.ci;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.RequestDetail;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.metrics.EngineMetrics;
import dev.fakbattery.core.metrics.MetricsScrape;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.stats.SequentialPlan;
import dev.fakbattery.wire.PromText;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A sweep level's parts that no load runs: the progress line's interval, the ratio's blocks and the level object's extras. */
@DisplayName("a concurrency level's interval line, the blocks its ratio is drawn over, and the stop, engine and adjudication it writes")
class SweepLevelReportTests {

	private static final TaxSettings SETTINGS = TaxSettings.from(HarnessConfig.of(name -> Optional.empty()));

	/** One batch of {@code tokens} tokens per request, 4 requests, over one second. */
	private static LoadResult batch(String target, int tokens) {
		List<RequestOutcome> outcomes = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			outcomes.add(Synthetic.ok(target, i, 10, 100, tokens));
		}
		return Synthetic.result(target, outcomes, 0, 1, Synthetic.QUIET);
	}

	@Test
	@DisplayName("a look's interval reads estimate, bounds, level and the target half-width in percent; no interval reads why")
	void describe() {
		SequentialPlan plan = SETTINGS.sweepPlan(4);
		ConfidenceInterval ratio = new ConfidenceInterval("ratio of medians", 0.9973, 0.9962, 0.9981, 0.983, 2000, 1L, Optional.empty());

		assertThat(SweepLevel.describe(ratio, plan))
				.isEqualTo(String.format(java.util.Locale.ROOT, "0.9973 [0.9962, 0.9981] (98.3 %%, target +/-%.2f %%)",
						plan.targetHalfWidth() * 100))
				.contains(String.format(java.util.Locale.ROOT, "+/-%.2f %%", plan.targetHalfWidth() * 100));
		assertThat(plan.targetHalfWidth()).as("a half-width the percent tells apart from a fraction").isPositive().isLessThan(0.1);
		assertThat(SweepLevel.describe(Synthetic.undefined(), plan)).isEqualTo("undefined: no samples");
	}

	@Test
	@DisplayName("one ratio per ABBA block from exactly twice the fewest blocks' batches per arm on, one per pair below")
	void ratioUnitByCount() {
		int fewest = 3;
		List<LoadResult> six = Collections.nCopies(2 * fewest, batch("raw", 8));
		List<LoadResult> five = Collections.nCopies(2 * fewest - 1, batch("raw", 8));

		assertThat(SweepLevel.ratioBlocks(six, six, fewest).pairsPerUnit()).as("6 batches per arm: 3 ABBA blocks").isEqualTo(2);
		assertThat(SweepLevel.ratioBlocks(six, five, fewest).pairsPerUnit()).as("5 whole pairs: fewer than 3 blocks").isOne();
		assertThat(SweepLevel.ratioBlocks(five, five, fewest).pairsPerUnit()).isOne();
	}

	@Test
	@DisplayName("a batch that decoded nothing gives its pair no ratio")
	void batchWithoutThroughput() {
		List<LoadResult> a = List.of(batch("raw", 8), batch("raw", 8), batch("raw", 8));
		List<LoadResult> b = List.of(batch("gateway", 8), batch("gateway", 0), batch("gateway", 8));

		assertThat(batch("gateway", 0).outputThroughput()).isZero();
		assertThat(SweepLevel.ratioBlocks(a, b, 3).ratios()).as("the ratios of pairs 1 and 3").hasSize(2);
		assertThat(SweepLevel.ratioBlocks(a, a, 3).ratios()).hasSize(3);
	}

	@Test
	@DisplayName("the level object carries the sequential stop, the engine's metrics and, where raw proposed tool calls, the adjudication")
	void levelObjectExtras() {
		RequestDetail.Call call = new RequestDetail.Call("c1", "lookup", "{\"q\":\"x\"}");
		LoadResult a = Synthetic.result("raw", List.of(Synthetic.ok("raw", 0, 0, 10, 100, 8, List.of(call))), 0, 1, Synthetic.QUIET);
		LoadResult b = Synthetic.result("gateway", List.of(Synthetic.ok("gateway", 0, 0, 10, 100, 8, List.of())), 0, 1,
				Synthetic.QUIET);
		SequentialPlan.Stop stop = SETTINGS.sweepPlan(4).run(n -> List.of(ci(1.0, 0.999, 1.001)));
		URI url = URI.create("http://127.0.0.1:1/metrics");
		EngineMetrics metrics = EngineMetrics.of(new MetricsScrape(url, PromText.parse("vllm:num_requests_running 0\n"), Optional.empty()),
				new MetricsScrape(url, PromText.parse("vllm:num_requests_running 2\n"), Optional.empty()));
		SweepLevel level = new SweepLevel(4, List.of(a), List.of(b), a, b, ci(0.75, 0.7, 0.8), ci(0.9, 0.85, 0.95), ci(1.1, 1.05, 1.15), 0,
				Optional.empty(), Optional.of(metrics), Optional.of(stop));

		ObjectNode json = level.toJson("raw", "gateway");

		assertThat(json.at("/sequential/unit").asText()).isEqualTo("batches per arm");
		assertThat(json.at("/sequential/used").asInt()).isEqualTo(stop.used());
		assertThat(json.at("/engine_metrics/available").asBoolean()).isTrue();
		assertThat(json.at("/engine_metrics/running_requests/after").asDouble()).isEqualTo(2.0);
		assertThat(json.at("/adjudication/proposed").asInt()).as("raw's one tool call").isOne();
		assertThat(json.at("/adjudication/dropped").asInt()).as("the gateway's answer has none").isOne();
	}
}
