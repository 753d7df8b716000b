package dev.fakbattery.core.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.PromText;

import org.apiguardian.api.API;

/**
 * One read of a server's Prometheus {@code /metrics} page: its samples, or why there are none (llama.cpp answers 501
 * unless started with {@code --metrics}; a gateway may serve none). Never throws for an unreachable or odd page.
 *
 * @param url the page read
 * @param samples the samples; empty when unavailable
 * @param unavailable why the page could not be read; empty when it was
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record MetricsScrape(URI url, List<PromText.Sample> samples, Optional<String> unavailable) {

	private static final HttpClient HTTP = HttpClients.negotiating(Duration.ofSeconds(5));

	public MetricsScrape {
		Objects.requireNonNull(url, "url");
		samples = List.copyOf(samples);
		Objects.requireNonNull(unavailable, "unavailable");
	}

	/** The {@code /metrics} page of the server whose OpenAI base URL is {@code baseUrl} (ending in {@code /v1}). */
	public static MetricsScrape of(URI baseUrl) {
		String base = baseUrl.toString().replaceAll("/+$", "");
		URI url = URI.create((base.endsWith("/v1") ? base.substring(0, base.length() - 3) : base) + "/metrics");
		return read(url);
	}

	/** Reads {@code url}. */
	public static MetricsScrape read(URI url) {
		try {
			HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).GET().build(),
					HttpResponse.BodyHandlers.ofString());
			if (answer.statusCode() != 200) {
				String body = answer.body().strip();
				return unavailable(url, "GET " + url + " answered HTTP " + answer.statusCode()
						+ (body.isEmpty() ? "" : ": " + (body.length() > 160 ? body.substring(0, 157) + "..." : body)));
			}
			return new MetricsScrape(url, PromText.parse(answer.body()), Optional.empty());
		}
		catch (IOException | IllegalArgumentException e) {
			return unavailable(url, "GET " + url + ": " + e.getMessage());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return unavailable(url, "GET " + url + ": interrupted");
		}
	}

	/** A scrape that read nothing, for {@code why}. */
	public static MetricsScrape unavailable(URI url, String why) {
		return new MetricsScrape(url, List.of(), Optional.of(why));
	}

	/**
	 * The series that changed between two reads, as {@code name{labels}} to the change, in page order: what a server
	 * whose metric names the harness does not know (a gateway under test) did during an arm.
	 */
	public static java.util.Map<String, Double> changes(MetricsScrape before, MetricsScrape after) {
		java.util.Map<String, Double> then = new java.util.HashMap<>();
		before.samples().forEach(sample -> then.merge(series(sample), sample.value(), Double::sum));
		java.util.Map<String, Double> changed = new java.util.LinkedHashMap<>();
		for (PromText.Sample sample : after.samples()) {
			double delta = sample.value() - then.getOrDefault(series(sample), 0.0);
			if (delta != 0 && Double.isFinite(delta) && !sample.name().endsWith("_bucket")) {
				changed.merge(series(sample), delta, Double::sum);
			}
		}
		return changed;
	}

	private static String series(PromText.Sample sample) {
		return sample.labels().isEmpty() ? sample.name() : sample.name() + sample.labels();
	}

	/** The sum of every sample named {@code name} (over all label sets); empty when the page has none. */
	public OptionalDouble sum(String name) {
		double total = 0;
		boolean found = false;
		for (PromText.Sample sample : samples) {
			if (sample.name().equals(name)) {
				total += sample.value();
				found = true;
			}
		}
		return found ? OptionalDouble.of(total) : OptionalDouble.empty();
	}
}
