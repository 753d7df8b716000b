package dev.fakbattery.core.load;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseLimitException;
import dev.fakbattery.wire.SseParser;
import dev.fakbattery.wire.SseReader;
import dev.fakbattery.wire.WireError;
import dev.fakbattery.wire.WireFormatException;

/**
 * A streamed response read as the HTTP client hands over its bytes: each event is parsed and timed on the thread that
 * delivers it, stamped with the time of that delivery, so no reading thread is woken per event (the JDK client would
 * otherwise hand every socket read to one virtual thread and then to another). A response that is not HTTP 200 keeps
 * its first {@value #EXCERPT} bytes for the failure and drops the rest; a line or event past
 * {@link SseReader#DEFAULT_MAX_EVENT_BYTES} ends the request as failed.
 */
final class StreamBody implements HttpResponse.BodySubscriber<RequestOutcome> {

	static final int EXCERPT = 2000;

	private final ResponseReader reader;

	private final int status;

	private final String where;

	private final CompletableFuture<RequestOutcome> outcome = new CompletableFuture<>();

	private final SseParser parser;

	private final StreamTimer timer;

	private final ByteArrayOutputStream excerpt = new ByteArrayOutputStream();

	private Flow.Subscription subscription;

	private String error;

	private byte[] scratch = new byte[0];

	/** @param where the request's URI, for a failure's message */
	StreamBody(ResponseReader reader, int status, String where) {
		this(reader, status, where, SseReader.DEFAULT_MAX_EVENT_BYTES);
	}

	/** With another bound on a line and on an event, for tests. */
	StreamBody(ResponseReader reader, int status, String where, int maxEventBytes) {
		this.parser = new SseParser(maxEventBytes);
		this.reader = reader;
		this.status = status;
		this.where = where;
		this.timer = new StreamTimer(reader.sentNanos());
	}

	@Override
	public void onSubscribe(Flow.Subscription subscription) {
		this.subscription = subscription;
		subscription.request(Long.MAX_VALUE);
	}

	@Override
	public void onNext(List<ByteBuffer> items) {
		long arrived = System.nanoTime();
		try {
			for (ByteBuffer item : items) {
				if (status != 200) {
					keepExcerpt(item);
				}
				else if (item.hasArray()) {
					parser.feed(item.array(), item.arrayOffset() + item.position(), item.remaining(), arrived, this::onEvent);
				}
				else {
					int length = item.remaining();
					if (scratch.length < length) {
						scratch = new byte[length];
					}
					item.get(scratch, 0, length);
					parser.feed(scratch, 0, length, arrived, this::onEvent);
				}
			}
		}
		catch (SseLimitException e) {
			subscription.cancel();
			outcome.complete(reader.transportFailure(e.getClass().getSimpleName() + ": " + e.getMessage() + " (" + where + ")"));
		}
	}

	private void keepExcerpt(ByteBuffer item) {
		int room = EXCERPT - excerpt.size();
		if (room > 0) {
			byte[] bytes = new byte[Math.min(room, item.remaining())];
			item.get(bytes);
			excerpt.writeBytes(bytes);
		}
	}

	private void onEvent(SseEvent event, long arrived) {
		if (event.isError()) {
			WireError frame = event.error();
			error = error != null ? error : "in-stream error frame: " + frame.message().orElse(event.data());
		}
		else if (!event.isDone() && event.event().isEmpty()) {
			try {
				timer.onChunk(event.chunk(), arrived);
			}
			catch (WireFormatException e) {
				error = error != null ? error : "malformed chunk: " + e.getMessage();
			}
		}
	}

	@Override
	public void onError(Throwable throwable) {
		outcome.completeExceptionally(throwable);
	}

	@Override
	public void onComplete() {
		if (status != 200) {
			outcome.complete(reader.nonOk(status, excerpt.toString(StandardCharsets.UTF_8)));
			return;
		}
		parser.end();
		outcome.complete(reader.streamed(timer, error, parser.sawDone(), parser.endedMidEvent(), parser.events()));
	}

	@Override
	public CompletionStage<RequestOutcome> getBody() {
		return outcome;
	}
}
