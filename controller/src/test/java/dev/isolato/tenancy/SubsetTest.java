package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SubsetTest {
  final ObjectMapper json = new ObjectMapper();

  JsonNode j(String s) throws Exception {
    return json.readTree(s);
  }

  @Test
  void serverAddedFieldsAreIgnored() throws Exception {
    assertThat(Subset.contains(j("{\"a\":1,\"b\":{\"c\":\"x\",\"d\":true},\"status\":{}}"), j("{\"b\":{\"c\":\"x\"}}"))).isTrue();
  }

  @Test
  void aChangedOrMissingFieldIsNotContained() throws Exception {
    assertThat(Subset.contains(j("{\"b\":{\"c\":\"x\"}}"), j("{\"b\":{\"c\":\"y\"}}"))).isFalse();
    assertThat(Subset.contains(j("{\"b\":{}}"), j("{\"b\":{\"c\":\"y\"}}"))).isFalse();
    assertThat(Subset.contains(null, j("{}"))).isFalse();
  }

  @Test
  void arraysMatchElementByElementAndInLength() throws Exception {
    assertThat(Subset.contains(j("[{\"a\":1,\"p\":\"TCP\"}]"), j("[{\"a\":1}]"))).isTrue();
    assertThat(Subset.contains(j("[{\"a\":1},{\"a\":2}]"), j("[{\"a\":1}]"))).isFalse();
    assertThat(Subset.contains(j("[{\"a\":2},{\"a\":1}]"), j("[{\"a\":1},{\"a\":2}]"))).isFalse();
  }

  @Test
  void quantitiesAndNumbersCompareByValue() throws Exception {
    assertThat(Subset.contains(j("{\"cpu\":\"1\"}"), j("{\"cpu\":\"1000m\"}"))).isTrue();
    assertThat(Subset.contains(j("{\"m\":\"1Gi\"}"), j("{\"m\":\"1024Mi\"}"))).isTrue();
    assertThat(Subset.contains(j("{\"cpu\":\"2\"}"), j("{\"cpu\":\"1000m\"}"))).isFalse();
    assertThat(Subset.contains(j("{\"n\":2.0}"), j("{\"n\":2}"))).isTrue();
    assertThat(Subset.contains(j("{\"s\":\"abc\"}"), j("{\"s\":\"abd\"}"))).isFalse();
  }
}
