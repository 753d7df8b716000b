package dev.fakbattery.bench.preflight;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

/**
 * The models an OpenAI-compatible {@code /v1/models} serves, with vLLM's {@code max_model_len}.
 *
 * @param httpStatus the HTTP status, 0 when there was no response
 * @param models the served models, empty when the body did not parse
 * @param bodyExcerpt the body (at most 2000 characters) or the transport error
 * @since 0.1
 */
public record ServedModels(int httpStatus, List<Model> models, String bodyExcerpt) {

	/**
	 * One served model.
	 *
	 * @param id the served name, for example {@code glm-5.2}
	 * @param maxModelLen vLLM's context length for it, when reported
	 */
	public record Model(String id, OptionalLong maxModelLen) {
		public Model {
			Objects.requireNonNull(id, "id");
			Objects.requireNonNull(maxModelLen, "maxModelLen");
		}
	}

	public ServedModels {
		models = List.copyOf(models);
		Objects.requireNonNull(bodyExcerpt, "bodyExcerpt");
	}

	/** Parses a {@code /v1/models} reply; a non-200 or unparsable body serves no model. */
	public static ServedModels parse(HttpReply reply) {
		List<Model> models = new ArrayList<>();
		if (reply.status() == 200) {
			try {
				for (JsonNode row : Json.MAPPER.readTree(reply.body()).path("data")) {
					JsonNode len = row.path("max_model_len");
					if (row.path("id").isTextual()) {
						models.add(new Model(row.path("id").asText(),
								len.canConvertToLong() && len.isIntegralNumber() ? OptionalLong.of(len.asLong()) : OptionalLong.empty()));
					}
				}
			}
			catch (JsonProcessingException e) {
				models.clear();
			}
		}
		return new ServedModels(reply.status(), models, reply.excerpt());
	}

	public List<String> ids() {
		return models.stream().map(Model::id).toList();
	}

	/** The model served as {@code id}, if any. */
	public Optional<Model> model(String id) {
		return models.stream().filter(m -> m.id().equals(id)).findFirst();
	}
}
