package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.ArrivalSchedule;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.OpenLoop;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.stats.Goodput;
import dev.fakbattery.core.stats.RateSearch;
import dev.fakbattery.core.stats.RequestTiming;
import dev.fakbattery.core.stats.Slo;
import dev.fakbattery.wire.JsonNumbers;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a rate sweep level's "met" means. Until 2026-12-05 the sweep offered each rate in batches of
 * {@code batch_seconds} (2 s) of arrivals, each drained before the next, so the engine never held more than one batch's
 * requests, and a rate met so need not be met when its requests keep coming. This bench offers each rate three ways to
 * the raw engine double at the battery's pace ({@link TaxRungTests#DECODE_LIKE}) and SLOs: four drained batches (the
 * old level), one open loop of {@value #SUSTAINED_SECONDS} s (its second half, the requests due after half of it, also
 * on its own), and the sweep's level as it is now ({@link RateLevel#measure}: one sustained open loop whose batches take
 * turns between two clients of the raw double, with its sequential decision); it writes each way's attainment with its
 * Wilson interval into {@code rate-burst-vs-sustained.json}. On-demand, in no profile (SIMULATED: the engine double,
 * not a real engine), numbers recorded, never asserted:
 *
 * <pre>
 * ./mvnw -B -pl bench-tests -am verify -Dtest=RateBurstBench -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("bench")
@DisplayName("rate sweep: a rate in drained 2 s batches, sustained, and as the sweep's level offers it (engine double)")
class RateBurstBench {

	static final String COMMAND = "./mvnw -B -pl bench-tests -am verify -Dtest=RateBurstBench -Dsurefire.failIfNoSpecifiedTests=false";

	static final int SUSTAINED_SECONDS = 30;

	static final List<Double> RATES = List.of(8.0, 12.0, 16.0);

	private final HarnessConfig config = HarnessConfig.fromSystemProperties();

	private final TaxSettings battery = BenchArtifact.batterySettings(config);

	@Test
	@DisplayName("each rate as four drained batches, as one sustained open loop and as the sweep's level: attainment of each")
	void burstsAgainstSustained() throws IOException {
		TaxSettings.RateLoad load = battery.load();
		BenchArtifact artifact = new BenchArtifact("fak-battery.rate-burst-vs-sustained.v1", "rate-burst-vs-sustained.json",
				COMMAND + BenchArtifact.experimentsDirArgument(config));
		ObjectNode body = artifact.body();
		body.put("slo", load.slo().toString());
		body.put("attainment_target", load.attainment());
		body.put("batch_seconds", load.batchSeconds());
		body.put("sustained_seconds", SUSTAINED_SECONDS);
		body.put("timing", TaxRungTests.DECODE_LIKE + " (the battery's embedded pace)");
		body.put("question", "is a rate met in drained batches (the sweep's levels until 2026-12-05) also met when its arrivals keep "
				+ "coming, and does the sweep's sustained level read it as a long sustained run does?");
		ArrayNode rows = body.putArray("rates");
		try (EmbeddedUpstream up = EmbeddedUpstream.start(config, TaxRungTests.DECODE_LIKE, Duration.ZERO);
				TargetClient raw = TargetClient.open("raw", URI.create(up.engine().baseUrl()), Map.of(),
						TargetClient.DEFAULT_RESPONSE_TIMEOUT);
				TargetClient rawB = TargetClient.open("raw_b", URI.create(up.engine().baseUrl()), Map.of(),
						TargetClient.DEFAULT_RESPONSE_TIMEOUT)) {
			RequestSource source = battery.workload().requests(up.engine().model(), true);
			SteadyWarmup.run(raw, raw, source, 4, battery.warmupCap(), battery.levelTimeCap());
			int next = 0;
			for (double rate : RATES) {
				int size = load.batchRequests(rate);
				List<RequestOutcome> bursts = new ArrayList<>();
				long start = System.nanoTime();
				for (int batch = 0; batch < 4; batch++, next += size) {
					bursts.addAll(run(raw, source, next, size, rate, load).outcomes());
				}
				double burstSeconds = (System.nanoTime() - start) / 1e9;
				int count = (int) Math.round(rate * SUSTAINED_SECONDS);
				start = System.nanoTime();
				LoadResult sustained = run(raw, source, next, count, rate, load);
				double sustainedSeconds = (System.nanoTime() - start) / 1e9;
				next += count;
				long half = sustained.outcomes().stream().mapToLong(RequestOutcome::intendedNanos).min().orElse(0)
						+ SUSTAINED_SECONDS * 500_000_000L;
				ObjectNode row = rows.addObject().put("rate", rate);
				write(row.putObject("batches"), rate, "4 batches of " + size + " arrivals, each drained before the next", bursts,
						burstSeconds,
						load);
				write(row.putObject("sustained"), rate, count + " arrivals in one open loop", sustained.outcomes(), sustainedSeconds, load);
				start = System.nanoTime();
				RateLevel level = RateLevel.measure(raw, rawB, source, rate, battery, java.util.Optional.empty(),
						URI.create(up.engine().baseUrl()), Progress.silent());
				double levelSeconds = (System.nanoTime() - start) / 1e9;
				ObjectNode sweep = row.putObject("sweep_level");
				write(sweep, rate, "the sweep's level: " + level.a().mode(), level.a().outcomes(), levelSeconds, load);
				sweep.put("decision_at_look", level.pointA().decision(load.attainment(), level.intervalLevel()));
				sweep.put("look_level", level.intervalLevel());
				write(row.putObject("sustained_second_half"), rate,
						"the sustained run's requests due after " + SUSTAINED_SECONDS / 2 + " s",
						sustained.outcomes().stream().filter(o -> o.intendedNanos() >= half).toList(), sustainedSeconds / 2, load);
				System.out.printf(Locale.ROOT,
						"[rate-burst] %.1f req/s: batches %s, sustained %s, its second half %s, the sweep's level %s%n",
						rate, row.path("batches").path("attainment").asText(), row.path("sustained").path("attainment").asText(),
						row.path("sustained_second_half").path("attainment").asText(), row.path("sweep_level").path("attainment").asText());
			}
		}
		Path file = artifact.write(config);
		assertThat(file).isRegularFile();
		assertThat(rows).hasSize(RATES.size());
		rows.forEach(row -> assertThat(row.path("sustained").path("requests").asInt()).isPositive());
	}

	private LoadResult run(TargetClient client, RequestSource source, int first, int size, double rate, TaxSettings.RateLoad load) {
		ArrivalSchedule arrivals = ArrivalSchedule.gamma(size, rate, load.burstiness(), battery.seed() + first);
		return LoadRunner.run(client, index -> source.conversation(first + index),
				new OpenLoop(arrivals, load.maxConcurrency(), 0, battery.levelTimeCap().multipliedBy(2)), Progress.silent());
	}

	private static void write(ObjectNode node, double rate, String how, List<RequestOutcome> outcomes, double seconds,
			TaxSettings.RateLoad load) {
		Slo slo = load.slo();
		boolean[] good = new boolean[outcomes.size()];
		for (int i = 0; i < good.length; i++) {
			good[i] = slo.isMetBy(outcomes.get(i).timing());
		}
		RateSearch.Point point = RateSearch.Point.ofSeries(rate, good);
		Goodput goodput = Goodput.of(slo, outcomes.stream().map(RequestOutcome::timing).toList(), seconds);
		node.put("how", how);
		node.put("requests", outcomes.size());
		node.put("good", goodput.good());
		node.put("attainment", String.format(Locale.ROOT, "%.3f [%.3f, %.3f] %s", point.attainment(),
				point.attainmentInterval(0.95).lo(), point.attainmentInterval(0.95).hi(), point.decision(load.attainment(), 0.95)));
		JsonNumbers.put(node, "seconds", seconds, 1);
		JsonNumbers.put(node, "mean_tpot_ms", outcomes.stream()
				.map(RequestOutcome::timing)
				.mapToDouble(RequestTiming::tpotMs)
				.filter(Double::isFinite)
				.average()
				.orElse(Double.NaN), 1);
	}
}
