// trainbench's pure core beyond shapes and layouts: the synthetic data, the token file, step
// statistics and the communication model, checked against values worked out by hand.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include "temp_dir.h"
#include "trainbench/comm_model.h"
#include "trainbench/data.h"
#include "trainbench/step_stats.h"

using namespace sweep::trainbench;

TEST_CASE("synthetic tokens follow their rule and are a pure function of seed and index") {
  const auto a = synthetic_tokens(7, 10, 3, 16, 256);
  REQUIRE(a.size() == 3 * 17);
  for (int s = 0; s < 3; ++s) {
    const auto* seq = &a[static_cast<std::size_t>(s) * 17];
    const auto stride = (seq[1] - seq[0] + 256) % 256;
    CHECK(stride >= 1);
    CHECK(stride <= 4);
    for (int i = 2; i < 17; ++i) CHECK(seq[i] == (2 * seq[i - 1] - seq[i - 2] + 256) % 256);
  }
  // Sample 11 alone is the second sample of the run above.
  const auto b = synthetic_tokens(7, 11, 1, 16, 256);
  CHECK(std::equal(b.begin(), b.end(), a.begin() + 17));
  CHECK(synthetic_tokens(8, 10, 1, 16, 256) != std::vector<std::int64_t>(a.begin(), a.begin() + 17));
}

TEST_CASE("synthetic images carry labels in range and differ by class") {
  const Images im = synthetic_images(1, 0, 64, 10);
  REQUIRE(im.pixels.size() == 64u * 3 * 32 * 32);
  REQUIRE(im.labels.size() == 64);
  std::set<std::int64_t> seen(im.labels.begin(), im.labels.end());
  CHECK(*seen.begin() >= 0);
  CHECK(*seen.rbegin() < 10);
  CHECK(seen.size() > 5);
  const Images again = synthetic_images(1, 5, 1, 10);
  CHECK(again.labels[0] == im.labels[5]);
  CHECK(std::equal(again.pixels.begin(), again.pixels.end(), im.pixels.begin() + 5 * 3 * 32 * 32));
}

TEST_CASE("a token file is read, and a bad one is named at file:line:column") {
  const TempDir tmp;
  const auto& dir = tmp.path;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const auto good = write("good.txt", "1 2 3\n4 5\n6 7 8 9\n");
  const auto tokens = load_tokens(good, 16, 4);
  CHECK(tokens == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  const auto window = file_tokens(tokens, 1, 1, 4);  // sample 1 starts at 1·seq = 4
  CHECK(window == std::vector<std::int64_t>{5, 6, 7, 8, 9});
  const auto bad = write("bad.txt", "1 2\n3 x9 4\n");
  CHECK_THROWS_WITH(load_tokens(bad, 16, 1), bad + ":2:3: \"x9\" is not a token id in [0, 16)");
  const auto big = write("big.txt", "1 2 16\n");
  CHECK_THROWS_WITH(load_tokens(big, 16, 1), big + ":1:5: \"16\" is not a token id in [0, 16)");
  CHECK_THROWS_WITH(load_tokens(good, 16, 8), Catch::Contains("holds 9 token ids; a sequence of 8 needs at least 10"));
  CHECK_THROWS_WITH(load_tokens((dir / "none.txt").string(), 16, 4), Catch::Contains("none.txt: cannot be read"));
}

TEST_CASE("a uint16 token file is read little-endian, and a bad one is named with the token's offset") {
  const TempDir tmp;
  const auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(tmp.path / name, std::ios::binary) << bytes;
    return tmp.file(name);
  };
  // 1, 258 (0x0102), 50256 (0xc450, GPT-2's <|endoftext|>), 7, 0 as np.array(..., np.uint16).tofile writes them.
  const std::string ids("\x01\x00\x02\x01\x50\xc4\x07\x00\x00\x00", 10);
  const auto good = write("train.bin", ids);
  const auto tokens = load_tokens_uint16(good, 50257, 2);
  CHECK(tokens == std::vector<std::int64_t>{1, 258, 50256, 7, 0});
  CHECK(file_tokens(tokens, 1, 1, 2) == std::vector<std::int64_t>{50256, 7, 0});  // sample 1 starts at 1·seq
  CHECK_THROWS_WITH(load_tokens_uint16(good, 50000, 2),
                    good + ": token 2 (byte offset 4): id 50256 is not below the vocabulary of 50000 (give --vocab)");
  const auto odd = write("odd.bin", ids + "x");
  CHECK_THROWS_WITH(load_tokens_uint16(odd, 50257, 2),
                    odd + ": 11 bytes is not a whole number of 2-byte token ids (uint16, little-endian)");
  CHECK_THROWS_WITH(load_tokens_uint16(good, 50257, 4), good + ": holds 5 token ids; a sequence of 4 needs at least 6");
  CHECK_THROWS_WITH(load_tokens_uint16(tmp.file("none.bin"), 50257, 2), tmp.file("none.bin") + ": cannot be read");
}

TEST_CASE("step statistics leave out the warm-up and interpolate p90 as numpy") {
  const StepStats s = step_stats({9, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 2);
  CHECK(s.steps == 10);
  CHECK(s.mean == Approx(5.5));
  CHECK(s.median == Approx(5.5));
  CHECK(s.p90 == Approx(9.1));  // numpy.percentile(range(1, 11), 90)
  CHECK(step_stats({1, 2}, 2).steps == 0);
}

TEST_CASE("the communication model counts what each parallelism hands to the backend") {
  const ModelConfig m = *preset("gpt2-tiny");  // L 2, C 64, T 32, V 256
  const Coordinates first{0, 0, 0};
  // DP 2: every parameter's fp32 gradient once.
  CHECK(predict_comm(m, {2, 1, 1}, first, 8, 1, {}).total() == 4.0 * static_cast<double>(parameter_count(m)));
  // With --grad-dtype bf16, 2 bytes each; bf16 activations do not change the gradients' bytes.
  CHECK(predict_comm(m, {2, 1, 1}, first, 8, 1, {.activation = 4, .gradient = 2}).total() ==
        2.0 * static_cast<double>(parameter_count(m)));
  CHECK(predict_comm(m, {2, 1, 1}, first, 8, 1, {.activation = 2, .gradient = 4}).total() ==
        4.0 * static_cast<double>(parameter_count(m)));
  // PP 2, 4 micro-batches of 2: stage 0 sends each output and receives its gradient (2·4·2·32·64·4
  // bytes), and all-reduces the tied embedding's gradient (256·64·4).
  const CommPrediction pp = predict_comm(m, {1, 1, 2}, first, 8, 4, {});
  CHECK(pp.pipeline == 2.0 * 4 * 2 * 32 * 64 * 4);
  CHECK(pp.embedding == 256.0 * 64 * 4);
  // The tied embedding's gradient follows --grad-dtype, the activations --dtype.
  const CommPrediction pp16 = predict_comm(m, {1, 1, 2}, first, 8, 4, {.activation = 4, .gradient = 2});
  CHECK(pp16.pipeline == pp.pipeline);
  CHECK(pp16.embedding == 256.0 * 64 * 2);
  // TP 2 in bf16: 4 all-reduces per layer of the whole micro-batch's activations, 2 bytes each.
  CHECK(predict_comm(m, {1, 2, 1}, first, 8, 1, {.activation = 2, .gradient = 4}).tensor_parallel == 2.0 * 4 * 8 * 32 * 64 * 2);
  CHECK(wire_factor(1) == 0);
  CHECK(wire_factor(4) == Approx(1.5));
}
