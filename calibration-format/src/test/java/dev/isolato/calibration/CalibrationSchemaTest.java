package dev.isolato.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The records are the definition of the format; the JSON schema that other languages read
 * (docs/schemas/calibration-run.schema.json) must say the same, field for field and bound for
 * bound, and every documented or stored run must read into the records without loss.
 */
class CalibrationSchemaTest {
  static final Path REPO = Path.of("..");
  static final Path SCHEMA = REPO.resolve("docs/schemas/calibration-run.schema.json");

  /**
   * The runner's measurement report and the referee's own CPU: in the schema, ignored by the engine
   * (not record fields).
   */
  static final Set<String> RUNNER_ONLY = Set.of("hygiene", "generator");

  private final ObjectMapper json =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  @Test
  void theSchemaDeclaresEachRecordFieldWithItsConstraints() throws IOException {
    JsonNode schema = json.readTree(SCHEMA.toFile());
    JsonNode step = schema.at("/properties/steps/items");

    List<String> problems = new ArrayList<>();
    agree(CalibrationRun.class, schema, RUNNER_ONLY, problems);
    agree(CalibrationContext.class, schema.at("/properties/context"), Set.of(), problems);
    agree(CalibrationStep.class, step, Set.of(), problems);
    agree(LatencySummary.class, schema.at("/$defs/summary"), Set.of(), problems);

    assertThat(problems).isEmpty();
    assertThat(step.at("/properties/total/allOf/1/properties/count/minimum").asInt())
        .as("a step's total has requests (CalibrationValidator)")
        .isEqualTo(1);
  }

  /**
   * Every run an experiment stored and posted. Experiments with {@code calibrate: false}
   * (gatling/experiments/defs/verify.yaml, finding3-plan.yaml) measure a class the planner sized;
   * those runs are never posted and state no replica count.
   */
  static Stream<Path> storedRuns() throws IOException {
    List<Path> notPosted = List.of(Path.of("results/verify"), Path.of("results/finding3/plan-1-3"));
    try (Stream<Path> files = Files.walk(REPO.resolve("results"))) {
      return files
          .filter(f -> f.toString().endsWith(".json"))
          .filter(CalibrationSchemaTest::isRun)
          .filter(f -> notPosted.stream().noneMatch(d -> REPO.relativize(f).startsWith(d)))
          .toList()
          .stream();
    }
  }

  @ParameterizedTest
  @MethodSource("storedRuns")
  void everyStoredRunReadsIntoTheRecordsWithoutLossAndIsValid(Path file) throws IOException {
    JsonNode written = json.readTree(file.toFile());
    CalibrationRun run = json.treeToValue(written, CalibrationRun.class);

    assertThat(CalibrationValidator.validate(run)).isEmpty();
    assertThat(withoutRunnerFields(json.valueToTree(run))).isEqualTo(withoutRunnerFields(written));
  }

  @Test
  void theDocumentedExampleReadsIntoTheRecordsWithoutLossAndIsValid() throws IOException {
    JsonNode written = json.readTree(documentedExample());
    CalibrationRun run = json.treeToValue(written, CalibrationRun.class);

    assertThat(CalibrationValidator.validate(run)).isEmpty();
    assertThat(withoutRunnerFields(json.valueToTree(run))).isEqualTo(withoutRunnerFields(written));
    assertThat(run.context().tenantMix()).containsEntry("gold", 4);
    assertThat(run.steps().get(0).total().p95()).isEqualTo(5.6);
    assertThat(run.steps().get(0).tenants()).containsOnlyKeys("t1", "t2");
  }

  @Test
  void contextKeysTheEngineDoesNotReadAreKept() throws IOException {
    String text = "{\"label\":\"alone\",\"replicas\":2,\"weight\":1.5,\"node\":\"n1\"}";
    CalibrationContext context = json.readValue(text, CalibrationContext.class);

    assertThat(context.more()).containsOnly(Map.entry("weight", 1.5), Map.entry("node", "n1"));
    assertThat(json.readTree(json.writeValueAsString(context))).isEqualTo(json.readTree(text));
  }

  /** The first ```json block of docs/calibration-format.md. */
  static String documentedExample() throws IOException {
    Path doc = REPO.resolve("docs/calibration-format.md");
    Matcher m =
        java.util.regex.Pattern.compile("```json\\n(.*?)```", java.util.regex.Pattern.DOTALL)
            .matcher(Files.readString(doc));
    assertThat(m.find()).as("a ```json block in %s", doc).isTrue();
    return m.group(1);
  }

  private static boolean isRun(Path file) {
    try {
      return new ObjectMapper().readTree(file.toFile()).has("schemaVersion");
    } catch (IOException e) {
      throw new IllegalStateException(file + " is not JSON", e);
    }
  }

  /** Without the runner's hygiene report, numbers compared by value (10 == 10.0, int == long). */
  private static JsonNode withoutRunnerFields(JsonNode run) {
    ObjectNode copy = run.deepCopy();
    RUNNER_ONLY.forEach(copy::remove);
    return new ObjectMapper().valueToTree(normalised(copy));
  }

  private static Object normalised(JsonNode node) {
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isObject()) {
      Map<String, Object> m = new java.util.LinkedHashMap<>();
      node.fields().forEachRemaining(e -> m.put(e.getKey(), normalised(e.getValue())));
      return m;
    }
    if (node.isArray()) {
      List<Object> l = new ArrayList<>();
      node.forEach(e -> l.add(normalised(e)));
      return l;
    }
    return new ObjectMapper().convertValue(node, Object.class);
  }

  /** Records every disagreement between the components of {@code type} and its schema object. */
  private static void agree(
      Class<? extends Record> type,
      JsonNode object,
      Set<String> schemaOnly,
      List<String> problems) {
    String where = type.getSimpleName();
    Set<String> declared = new TreeSet<>();
    object.path("properties").fieldNames().forEachRemaining(declared::add);
    declared.removeAll(schemaOnly);
    Set<String> required = new TreeSet<>();
    object.path("required").forEach(r -> required.add(r.asText()));
    Set<String> components = new TreeSet<>();
    Set<String> requiredComponents = new TreeSet<>();
    for (RecordComponent component : type.getRecordComponents()) {
      // the constraint annotations apply to fields and methods, so read them from the field
      Field c = field(type, component.getName());
      if (c.isAnnotationPresent(JsonAnySetter.class)) {
        continue;
      }
      components.add(c.getName());
      if (c.isAnnotationPresent(Required.class)) {
        requiredComponents.add(c.getName());
      }
      JsonNode property = object.path("properties").path(c.getName());
      if (!property.isMissingNode()) {
        constraints(where + "." + c.getName(), c, property, problems);
      }
    }
    if (!declared.equals(components)) {
      problems.add(where + ": schema properties " + declared + ", record components " + components);
    }
    if (!required.equals(requiredComponents)) {
      problems.add(where + ": schema requires " + required + ", record " + requiredComponents);
    }
  }

  private static void constraints(String where, Field c, JsonNode p, List<String> problems) {
    if (p.has("$ref") || p.has("allOf")) {
      return; // a nested record, checked on its own
    }
    Min min = c.getAnnotation(Min.class);
    Max max = c.getAnnotation(Max.class);
    if (min != null && max != null && min.value() == max.value()) {
      expect(where, "const", p, min.value(), problems);
    } else {
      expect(
          where,
          min == null || min.inclusive() ? "minimum" : "exclusiveMinimum",
          p,
          min == null ? null : min.value(),
          problems);
      expect(
          where,
          max == null || max.inclusive() ? "maximum" : "exclusiveMaximum",
          p,
          max == null ? null : max.value(),
          problems);
    }
    Pattern pattern = c.getAnnotation(Pattern.class);
    String schemaPattern = p.has("pattern") ? p.get("pattern").asText() : null;
    if (!java.util.Objects.equals(pattern == null ? null : pattern.value(), schemaPattern)) {
      problems.add(
          where + ": pattern " + schemaPattern + " in the schema, " + pattern + " in the record");
    }
    Size size = c.getAnnotation(Size.class);
    expect(where, "minItems", p, size == null ? null : (double) size.min(), problems);
    String type = jsonType(c.getType());
    if (type != null && !p.has("const") && !type.equals(p.path("type").asText())) {
      problems.add(
          where + ": type " + p.path("type") + " in the schema, " + type + " in the record");
    }
  }

  private static Field field(Class<?> type, String name) {
    try {
      return type.getDeclaredField(name);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void expect(
      String where, String keyword, JsonNode p, Double value, List<String> problems) {
    Double schema = p.has(keyword) ? p.get(keyword).asDouble() : null;
    if (!java.util.Objects.equals(value, schema)) {
      problems.add(
          where + ": " + keyword + " " + schema + " in the schema, " + value + " in the record");
    }
  }

  private static String jsonType(Class<?> t) {
    if (t == int.class || t == long.class || t == Integer.class || t == Long.class) {
      return "integer";
    } else if (t == double.class || t == Double.class) {
      return "number";
    } else if (t == String.class) {
      return "string";
    } else if (t == boolean.class) {
      return "boolean";
    } else if (List.class.isAssignableFrom(t)) {
      return "array";
    } else if (Map.class.isAssignableFrom(t)) {
      return "object";
    }
    return null;
  }
}
