// The seed campaigns of experiments/ at scale=ci on the development cluster, through the Slurm
// executor: every run succeeds, every report has its tables and figures, and the seeds' qualitative
// findings hold in the database (DP falls when nodes are added and is below 1 on 2x2; TP moves the most
// bytes, PP the fewest between two nodes; the network cards carry at least what the communicators sent;
// the measured bytes per step match the analytical model; e16's transfer speed is 2 x size / time).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include "e2e/paper_harness.h"
#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

/// Runs experiments/<file> (or, with a '/' in it, that file) at scale=ci with `extra` arguments, then
/// reports it; both must succeed.
void run_and_report(const e2e::Sandbox& box, const std::string& file, const std::string& label,
                    std::vector<std::string> extra, int runs) {
  const std::string path = file.find('/') == std::string::npos ? e2e::repo_file("experiments/" + file) : file;
  std::vector<std::string> args{"run", path, "--executor", "slurm", "--set", "scale=ci",
                                "--label", label, "--poll-max", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = box.sweep(args);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(query(box, "SELECT count(*) FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE r.state = 'succeeded' "
                   "AND c.label = '" + label + "'") == std::to_string(runs));
  const auto rep = box.sweep({"report", label});
  INFO(rep.out << rep.err);
  REQUIRE(rep.exit_code == 0);
}

void check_outputs(const e2e::Sandbox& box, const std::string& label, const std::vector<std::string>& tables,
                   const std::vector<std::string>& figures) {
  const std::string dir = box.path("reports/" + label);
  const std::string html = e2e::read_file(dir + "/report.html");
  for (const auto& t : tables) {
    CHECK(std::filesystem::file_size(dir + "/report." + t + ".csv") > 0);
    CHECK_THAT(e2e::read_file(dir + "/report.tex"), Catch::Contains("\\label{tab:" + t + "}"));
  }
  for (const auto& f : figures) {
    CHECK(std::filesystem::file_size(dir + "/figures/" + f + ".svg") > 0);
    CHECK(std::filesystem::file_size(dir + "/figures/" + f + ".pdf") > 0);
  }
  CHECK(std::count(html.begin(), html.end(), '<') > 0);
  CHECK_THAT(html, Catch::Contains("data:image/svg+xml"));
  // The tables and the figures' paper versions compile in a two-column article, none overflowing.
  const e2e::Paper paper = e2e::compile_article(box.path("paper-" + label), e2e::report_body(dir, box.path("paper-" + label)));
  INFO(paper.log);
  CHECK(paper.exit_code == 0);
  CHECK(e2e::overfull_lines(paper.log).empty());
}

/// The where-clause of the succeeded runs `r` of points whose parameters match `where` (name = value).
std::string of_points(const std::map<std::string, std::string>& where) {
  std::string sql = " r.state = 'succeeded'";
  for (const auto& [name, value] : where)
    sql += " AND EXISTS (SELECT 1 FROM point_params p WHERE p.point_id = r.point_id AND p.name = '" + name +
           "' AND p.value = '" + value + "')";
  return sql;
}

/// The mean of `metric` over the succeeded runs of points whose parameters match `where` (name = value).
double mean_of(const e2e::Sandbox& box, const std::string& metric, const std::map<std::string, std::string>& where) {
  const std::string sql = "SELECT avg(m.value) FROM metrics m JOIN runs r ON r.id = m.run_id WHERE m.name = '" + metric +
                          "' AND" + of_points(where);
  const std::string v = query(box, sql);
  INFO(sql);
  REQUIRE(!v.empty());
  return std::stod(v);
}

/// Seed 000's transfer speed, 2 x size / time in GB/s, averaged over the runs of the points of `where`.
double transfer_speed(const e2e::Sandbox& box, const std::map<std::string, std::string>& where) {
  const std::string v = query(box, "SELECT avg(2.0 * s.value / t.value / 1e3) FROM metrics s JOIN metrics t ON "
                                   "t.run_id = s.run_id AND t.idx = s.idx AND t.name = 'time_us' JOIN runs r ON "
                                   "r.id = s.run_id WHERE s.name = 'size_bytes' AND" + of_points(where));
  REQUIRE(!v.empty());
  return std::stod(v);
}

/// The rows of a report CSV as maps from header to cell.
std::vector<std::map<std::string, std::string>> csv_rows(const std::string& path) {
  std::istringstream in(e2e::read_file(path));
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cells.size() && i < header.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

TEST_CASE("e15 and e16 at scale=ci: every run succeeds, the seed's tables and figures, DP scales at most linearly, "
          "and e16's report recalculates e15's epochs with the measured all-reduce", "[solo][timing]") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "e15");
  // One task at a time, so that no run's time is measured while another shares the 2 cores.
  LoadWatch load;
  run_and_report(box, "e15-gpt2-ddp-interconnect.yaml", L, {"--max-queued", "1", "--poll-min", "0.2"}, 18);
  const std::string busy = load.verdict(2);  // a 2-rank run's ranks
  check_outputs(box, L, {"e15", "predicted"}, {"epoch_time", "predicted_epoch"});
  const std::string md = e2e::read_file(box.path("reports/" + L + "/report.md"));
  CHECK_THAT(md, Catch::Contains("| Experiment | Model | Parallelism | Nodes | GPUs per Node | Epoch 2 time (s) | "
                                 "Peak memory (MiB) |"));
  CHECK_THAT(md, Catch::Contains("| e-15-gpt2-large-2x1 | gpt2-large | DDP | 2 | 1 |"));
  // The seed's gradient volume: every 2-rank run all-reduces its parameters' gradients in bf16 (2 bytes
  // each), and the report's model counts the same bytes.
  CHECK(query(box, "SELECT count(*) FROM metrics c JOIN metrics p ON p.run_id = c.run_id AND p.name = 'parameters' "
                   "WHERE c.name = 'comm_bytes_per_step' AND c.value = 2 * p.value") == "12");
  int modelled = 0;
  for (const auto& row : csv_rows(box.path("reports/" + L + "/report.predicted.csv"))) {
    if (row.at("GPUs per Node") == "1" && row.at("Nodes") == "1") continue;
    INFO(row.at("Model") << " " << row.at("Nodes") << "x" << row.at("GPUs per Node"));
    const double counted = std::stod(row.at("Gradients counted (MB/step) mean"));
    CHECK(counted > 0);
    CHECK(std::stod(row.at("Gradients modelled (MB/step) mean")) == Approx(counted));
    ++modelled;
  }
  CHECK(modelled == 4);
  // Scaling factor T_1/(n·T_n) of the epoch-2 time (the ranks split the epoch's data): at most 1, where
  // that holds beyond this VM's noise. gpt2 measured 0.80 and 0.84. gpt2-large's step is long next to
  // its all-reduce over lo (0.986 and 0.959, one run each, with the earlier stand-in of 4 layers of width
  // 128; the smaller step of 3 layers of width 96 leaves the all-reduce a larger share), so one slow 1x1
  // epoch would lift it over 1:
  // there the bound is 1.05, which still catches ranks that did not split the data (0.5) or a T_n
  // taken from one rank's half of the work counted twice (2).
  const std::map<std::string, double> bound{{"gpt2", 1.0}, {"gpt2-large", 1.05}};
  if (!busy.empty()) WARN("SKIP e15's DP scaling bounds: " << busy);
  for (const auto& [model, most] : busy.empty() ? bound : std::map<std::string, double>{}) {
    const double t1 = mean_of(box, "epoch_time_headline", {{"model", model}, {"setup", "1x1"}});
    for (const std::string setup : {"1x2", "2x1"}) {
      const double tn = mean_of(box, "epoch_time_headline", {{"model", model}, {"setup", setup}});
      INFO(model << " " << setup << ": T_1 " << t1 << " s, T_2 " << tn << " s");
      CHECK(t1 / (2 * tn) <= most);
      CHECK(t1 / (2 * tn) > 0.5);
    }
  }

  // e16 in the same database: all-reduce over gloo and mpi on 1x2 and 2x1.
  const std::string L16 = unique_label(box, "e16");
  run_and_report(box, "e16-allreduce-backends.yaml", L16, {"--set", "backend=[gloo, mpi]"}, 12);
  check_outputs(box, L16, {"e16", "recalculated"}, {"transfer_speed", "allreduce_time", "recalculated_epoch"});
  CHECK(query(box, "SELECT count(DISTINCT r.point_id) FROM metrics m JOIN runs r ON r.id = m.run_id "
                   "WHERE m.name = 'busbw' AND m.value > 0") == "4");
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'size_bytes' AND value != 1400000") == "0");  // 700K bf16
  const std::string md16 = e2e::read_file(box.path("reports/" + L16 + "/report.md"));
  CHECK_THAT(md16, Catch::Contains("| Experiment | Nodes | GPUs per Node | Backend | Protocol | Measured Transfer speed (GB/s) | "
                                   "Time (s) | busbw (GB/s) |"));
  // Seed 000's transfer speed: 2 x size / time of the stored runs, not collbench's busbw (size / time on 2 ranks).
  for (const auto& row : csv_rows(box.path("reports/" + L16 + "/report.e16.csv"))) {
    const std::string setup = row.at("Nodes") + "x" + row.at("GPUs per Node");
    INFO(setup << " " << row.at("Protocol"));
    const double speed = transfer_speed(box, {{"setup", setup}, {"backend", row.at("Protocol")}});
    CHECK(std::stod(row.at("Measured Transfer speed (GB/s) mean")) == Approx(speed));
    CHECK(std::stod(row.at("busbw (GB/s) mean")) == Approx(speed / 2).epsilon(0.02));
  }
  // Seed 000's recalculation, one row per e15 point: on 2 GPUs, half the single-GPU epoch plus the
  // steps times e16's all-reduce time at the same topology and backend (gloo), next to the measured epoch.
  const auto rows = csv_rows(box.path("reports/" + L16 + "/report.recalculated.csv"));
  REQUIRE(rows.size() == 6);
  int recalculated = 0;
  for (const auto& row : rows) {
    INFO(row.at("Experiment"));
    if (row.at("Nodes") == "1" && row.at("GPUs per Node") == "1") {
      CHECK(row.at("Estimated (s) mean").empty());
      continue;
    }
    const double allreduce = std::stod(row.at("All-reduce (s) mean"));
    const double half = std::stod(row.at("Half single-GPU time (s) mean"));
    const double estimated = std::stod(row.at("Estimated (s) mean"));
    const std::string setup = row.at("Nodes") + "x" + row.at("GPUs per Node");
    CHECK(allreduce == Approx(mean_of(box, "time_us", {{"setup", setup}, {"backend", "gloo"}}) * 1e-6));
    CHECK(half == Approx(mean_of(box, "epoch_time_headline", {{"model", row.at("Model")}, {"setup", "1x1"}}) / 2));
    CHECK(estimated == Approx(half + std::stod(row.at("Steps")) * allreduce));
    CHECK(std::stod(row.at("Measured (s) mean")) > 0);
    ++recalculated;
  }
  CHECK(recalculated == 4);
}

TEST_CASE("nanocluster-resnet18 at scale=ci: 4 topologies x 4 batches, throughput bars and the scaling factor", "[solo]") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "r18");
  run_and_report(box, "nanocluster-resnet18.yaml", L, {"--set", "repetitions=1"}, 16);
  check_outputs(box, L, {"resnet18"}, {"throughput", "scaling"});
  // Every multi-rank run all-reduces ResNet-18's 11,173,962 fp32 gradients per step; one rank none.
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'comm_bytes_per_step' AND value = 44695848") == "12");
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'comm_bytes_per_step' AND value = 0") == "4");
  CHECK_THAT(e2e::read_file(box.path("reports/" + L + "/report.md")), Catch::Contains("Scaling Factor"));
}

TEST_CASE("nanocluster-gpt2 at scale=ci: TP moves the most bytes, and the bytes per step match the model", "[solo]") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "g2");
  // The smallest and the largest model (XL has no TP) at two batches: 1x1 once per model and batch, not
  // per parallelism; 2 x (1 + 3 x 3) x 2 less XL's 3 TP points per batch.
  run_and_report(box, "nanocluster-gpt2.yaml", L,
                 {"--set", "repetitions=1", "--set", "model=[gpt2, gpt2-xl]", "--set", "batch=[4, 16]"}, 34);
  check_outputs(box, L, {"parallelism", "batch"}, {"throughput", "time_vs_size", "volume_vs_size"});
  // TP against DP and PP for the same model, setup and batch: more bytes per step on every pair.
  const std::string bytes = "SELECT r.point_id AS id, m.value AS v, "
                            "(SELECT value FROM point_params WHERE point_id = r.point_id AND name = 'parallelism') AS par, "
                            "(SELECT group_concat(value, '/') FROM point_params WHERE point_id = r.point_id AND "
                            "name IN ('model', 'setup', 'batch')) AS same FROM metrics m JOIN runs r ON r.id = m.run_id "
                            "WHERE m.name = 'comm_bytes_per_step' AND m.value > 0";
  const std::string pairs = "WITH b AS (" + bytes + ") SELECT count(*) FROM b t JOIN b o ON o.same = t.same "
                            "WHERE t.par = 'tp' AND o.par IN ('dp', 'pp')";
  CHECK(query(box, pairs) == "12");  // gpt2 (XL has no TP) x 3 setups x 2 batches x {dp, pp}
  CHECK(query(box, pairs + " AND t.v <= o.v") == "0");
  // The report's model against the counted bytes: equal within 1% on 2 ranks. On 4 ranks the model
  // counts a ring all-reduce's bytes on the wire, 2(n-1)/n = 1.5 times the buffer trainbench counts.
  const auto rows = csv_rows(box.path("reports/" + L + "/report.parallelism.csv"));
  int compared = 0;
  for (const auto& row : rows) {
    if (row.at("Setup") == "1x1") continue;
    const double measured = std::stod(row.at("Comm. Vol. (B/step) mean"));
    const double model = std::stod(row.at("Model Comm. Vol. (B/step) mean"));
    const double wire = row.at("Setup") == "2x2" && row.at("Parallelism") != "pp" ? 1.5 : 1.0;
    INFO(row.at("Model") << " " << row.at("Setup") << " " << row.at("Parallelism") << ": measured " << measured
                         << " B, model " << model << " B");
    CHECK(std::abs(model - wire * measured) <= 0.01 * wire * measured);
    ++compared;
  }
  CHECK(compared == 15);  // (2 models x 3 setups x 3 parallelisms, less XL's TP) at batch 16
}

TEST_CASE("seed 003's findings at scale=ci: DP's scaling factor is throughput over n single-GPU runs, falls when "
          "nodes are added and is below 1 on 2x2, TP moves the most bytes, PP's counted volume lies between DP's and TP's but PP puts the fewest bytes between two nodes, and "
          "the network cards carry what the communicators sent", "[solo][timing]") {
  slurm_conf();
  e2e::Sandbox box;
  // nanocluster-gpt2 with the development cluster's interface named: its emulated nodes talk over lo.
  std::string yaml = e2e::read_file(e2e::repo_file("experiments/nanocluster-gpt2.yaml"));
  const std::string network = "\nnetwork: {}\n";
  REQUIRE(yaml.find(network) != std::string::npos);
  yaml.replace(yaml.find(network), network.size(), "\nnetwork: {interfaces: [lo]}\n");
  const std::string L = unique_label(box, "find");
  // GPT-2 at batch 16, 2 repetitions, one run at a time (no run's time measured while another shares the
  // 2 cores): 1x1 once, and DP, TP and PP on 1x2, 2x1 and 2x2. Two repetitions decide the order
  // asserted below (four ranks on two cores against two; docs/ci.md has the measured factors).
  LoadWatch load;
  run_and_report(box, box.write("g2.yaml", yaml), L,
                 {"--set", "model=gpt2", "--set", "batch=16", "--set", "repetitions=2", "--max-queued", "1",
                  "--poll-min", "0.2"}, 20);
  const std::string busy = load.verdict(4);  // a 2x2 run's four ranks
  std::map<std::string, double> dp_scaling;
  for (const auto& row : csv_rows(box.path("reports/" + L + "/report.parallelism.csv")))
    if (row.at("Parallelism") == "dp" && row.at("Setup") != "1x1") dp_scaling[row.at("Setup")] = std::stod(row.at("Scaling Factor mean"));
  REQUIRE(dp_scaling.size() == 3);
  // DP's scaling factor is the mean global throughput of a setup's runs over n times the mean of the
  // single-GPU run's repetitions, recomputed here from the stored metrics: a wrong baseline or per-rank
  // throughput would not match.
  const auto mean_tokens_per_s = [&](const std::string& setup, const std::string& parallelism) {
    return std::stod(query(box, "SELECT avg(m.value) FROM metrics m JOIN runs r ON r.id = m.run_id AND m.attempt = r.attempt "
                                "JOIN campaigns c ON c.id = r.campaign_id JOIN point_params s ON s.campaign_id = r.campaign_id "
                                "AND s.point_id = r.point_id AND s.name = 'setup' JOIN point_params p ON p.campaign_id = "
                                "r.campaign_id AND p.point_id = r.point_id AND p.name = 'parallelism' WHERE c.label = '" + L +
                                "' AND m.name = 'tokens_per_s' AND s.value = '" + setup + "' AND p.value = '" + parallelism + "'"));
  };
  const double single = mean_tokens_per_s("1x1", "dp");
  const std::map<std::string, int> ranks{{"1x2", 2}, {"2x1", 2}, {"2x2", 4}};
  for (const auto& [setup, s] : dp_scaling) {
    INFO(setup << ": S = " << s);
    CHECK(s == Approx(mean_tokens_per_s(setup, "dp") / (ranks.at(setup) * single)).epsilon(1e-6));
  }
  // The seed's finding where this cluster shows it beyond its noise: four ranks on two cores scale far
  // below 1, and below two ranks on one node. 1x2 and 2x1 are not asserted below 1: they put two ranks
  // on two otherwise idle cores against one rank on one core, their all-reduce over lo is a few percent
  // of a step, and the VM's run-to-run noise is larger (S from 0.45 to 1.07 in repeated runs).
  CHECK(dp_scaling.at("2x2") > 0);
  if (busy.empty()) {
    CHECK(dp_scaling.at("2x2") < 1);
    CHECK(dp_scaling.at("2x2") < dp_scaling.at("1x2"));
  } else {
    WARN("SKIP seed 003's scaling order: " << busy);
  }
  // Network volume per run at the cards (seed 003's Net Vol.): TP the most on every setup. Between two
  // nodes, where all traffic crosses the link, the seed's order holds: TP 1171 GB > DP 223 GB > PP 174 GB.
  // (The seed's PP exceeds DP only on 2x2, counting the inter-node link alone; here lo carries the
  // traffic inside a node too, so 2x2 cannot be split that way.)
  for (const std::string setup : {"1x2", "2x1", "2x2"}) {
    const double dp = mean_of(box, "nic_volume", {{"setup", setup}, {"parallelism", "dp"}});
    const double tp = mean_of(box, "nic_volume", {{"setup", setup}, {"parallelism", "tp"}});
    const double pp = mean_of(box, "nic_volume", {{"setup", setup}, {"parallelism", "pp"}});
    INFO(setup << ": DP " << dp << " B, TP " << tp << " B, PP " << pp << " B");
    CHECK(tp > dp);
    CHECK(tp > pp);
    if (setup == "2x1") CHECK(dp > pp);
    // What rank 0 hands to its communicators per step (the Comm. Vol. column) counts a point-to-point
    // transfer on both ends: there PP lies between DP and TP on every setup.
    const double dp_c = mean_of(box, "comm_bytes_per_step", {{"setup", setup}, {"parallelism", "dp"}});
    const double tp_c = mean_of(box, "comm_bytes_per_step", {{"setup", setup}, {"parallelism", "tp"}});
    const double pp_c = mean_of(box, "comm_bytes_per_step", {{"setup", setup}, {"parallelism", "pp"}});
    INFO("counted per step: DP " << dp_c << " B, TP " << tp_c << " B, PP " << pp_c << " B");
    CHECK(dp_c < pp_c);
    CHECK(pp_c < tp_c);
  }
  // On 2x1 every communicator byte crosses between the nodes. In a 2-rank ring all-reduce each rank sends
  // its buffer once, so DP and TP put 2 x rank 0's counted bytes on the link; for PP, rank 0 counts its
  // sends and its receives, which are both directions already. The cards must show at least that.
  const std::string per_run = "SELECT n.value, c.value * s.value * (CASE WHEN par.value = 'pp' THEN 1 ELSE 2 END), "
                              "par.value FROM runs r JOIN metrics n ON n.run_id = r.id AND n.name = 'nic_volume' "
                              "JOIN metrics c ON c.run_id = r.id AND c.name = 'comm_bytes_per_step' "
                              "JOIN metrics s ON s.run_id = r.id AND s.name = 'steps_per_epoch' "
                              "JOIN point_params par ON par.point_id = r.point_id AND par.name = 'parallelism' WHERE" +
                              of_points({{"setup", "2x1"}});
  int compared = 0;
  for (const auto& row : rows_of(box, per_run)) {
    INFO(row.at(2) << ": nic_volume " << row.at(0) << " B, communicators' inter-node bytes " << row.at(1) << " B");
    CHECK(std::stod(row.at(1)) > 0);
    CHECK(std::stod(row.at(0)) >= std::stod(row.at(1)));
    ++compared;
  }
  CHECK(compared == 6);  // DP, TP and PP, 2 runs each
  // Each of those 2-node GPU jobs recorded the facts of both nodes (a step on each, keeping the job's GPUs).
  const auto facts = rows_of(box, "SELECT v.value FROM run_provenance v JOIN runs r ON r.id = v.run_id WHERE "
                                  "v.key = 'job.nodes' AND" + of_points({{"setup", "2x1"}}));
  CHECK(facts.size() == 6);
  for (const auto& row : facts) {
    INFO(row.at(0));
    std::istringstream lines(row.at(0));
    int nodes = 0;
    for (std::string line; std::getline(lines, line);) nodes += line.find(" cpus=") != std::string::npos;
    CHECK(nodes == 2);
  }
}
