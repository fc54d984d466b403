# trainbench's pure core of model shapes and layout rules (model_config, layout, layout_options): no
# torch, no MPI, no CLI11. trainbench links it, and so does the orchestrator's spec module, which
# refuses at plan time what trainbench would refuse at start (docs/architecture.md). Included by the
# top-level CMakeLists.txt before orchestrator/, so that it exists in every preset (fuzz builds have no
# workloads/).
add_library(sweep_trainbench_layout STATIC
  ${CMAKE_CURRENT_LIST_DIR}/model_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout_options.cpp)
target_include_directories(sweep_trainbench_layout PUBLIC ${PROJECT_SOURCE_DIR}/workloads)
target_link_libraries(sweep_trainbench_layout PUBLIC fmt::fmt)
