package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;

import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;
import dev.fakbattery.wire.WireFormatException;
import dev.fakbattery.wire.WireJson;

/**
 * Relays one upstream stream (HTTP 200) to the client event by event, each flushed as soon as it is read:
 * <ul>
 * <li>chunks go through {@link StreamAdjudicator}; in-stream error frames pass through unchanged;</li>
 * <li>at the upstream {@code [DONE]} the client gets {@code data: [DONE]}, preceded by {@code event: adjudication}
 * with the record only when the request asked for it ({@link dev.fakbattery.wire.spi.GatewayUnderTest#RECORD_HEADER})
 * or the gateway runs with {@code --record-on-wire};</li>
 * <li>a stream that ends or breaks without {@code [DONE]}, or whose data is not a valid chunk, is answered 502 when
 * the client got nothing yet ({@code upstream stream ended without any event}, {@code upstream stream truncated},
 * {@code upstream sent a malformed stream event: ...}), else with the in-stream frame {@value OpenAiError#TRUNCATED_FRAME}, the record (when asked for) and
 * {@code [DONE]}; held calls are never released;</li>
 * <li>a client that disconnects makes the next write fail: the upstream body is closed, which closes its
 * connection and so cancels the engine's request.</li>
 * </ul>
 */
final class StreamRelay {

	private final HttpExchange exchange;

	private final SseSink sink;

	private final StreamAdjudicator stream;

	private final AdjudicationRecord record;

	private final boolean recordOnWire;

	private final GatewayMetrics metrics;

	private final int maxEventBytes;

	private IOException failure;

	StreamRelay(HttpExchange exchange, HttpResponse<?> upstream, CallAdjudicator adjudicator, AdjudicationRecord record,
			boolean recordOnWire, GatewayMetrics metrics, int maxEventBytes) {
		this.maxEventBytes = maxEventBytes;
		this.exchange = exchange;
		this.sink = new SseSink(exchange, upstream.headers().firstValue("Content-Type").orElse(null));
		this.stream = new StreamAdjudicator(adjudicator);
		this.record = record;
		this.recordOnWire = recordOnWire;
		this.metrics = metrics;
	}

	void relay(InputStream upstreamBody) {
		metrics.streamOpened();
		try (upstreamBody) {
			pump(new SseReader(upstreamBody, maxEventBytes));
		}
		catch (IOException clientGone) {
			metrics.clientCancelled();
		}
		finally {
			metrics.streamClosed();
		}
	}

	/** Reads until the stream ends; an {@link IOException} out of here is the client's side failing. */
	private void pump(SseReader reader) throws IOException {
		while (true) {
			SseEvent event = next(reader);
			if (event == null) {
				broken(UpstreamFailure.of(failure,
						reader.events() == 0 ? "upstream stream ended without any event" : "upstream stream truncated"));
				return;
			}
			switch (event.kind()) {
				case DONE -> {
					finish();
					return;
				}
				case ERROR -> sink.send(List.of(event.data()));
				case DATA -> {
					List<String> payloads;
					try {
						payloads = stream.onChunk(event);
					}
					catch (WireFormatException e) {
						broken(UpstreamFailure.badGateway("upstream sent a malformed stream event: " + e.getMessage()));
						return;
					}
					sink.send(payloads);
				}
			}
		}
	}

	/** The next upstream event, or null when the upstream ended or broke (then {@link #failure} says how). */
	private SseEvent next(SseReader reader) {
		try {
			return reader.next().orElse(null);
		}
		catch (IOException upstreamBroke) {
			failure = upstreamBroke;
			return null;
		}
	}

	private void broken(UpstreamFailure broken) throws IOException {
		metrics.upstreamError();
		if (!sink.started()) {
			Exchanges.sendError(exchange, broken.error());
			return;
		}
		sink.send(List.of(broken.frame()));
		finish();
	}

	private void finish() throws IOException {
		sink.finish(AdjudicationRecord.KEY, recordOnWire ? WireJson.write(record.toJson()) : null);
	}
}
