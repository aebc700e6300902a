//===- ConvModelTest.h - Conv model tools of isaac-model-test -*- C++ -*-===//

#ifndef ISAAC_TEST_MODEL_CONVMODELTEST_H
#define ISAAC_TEST_MODEL_CONVMODELTEST_H

#include "isaac/Model/MLP.h"

/// Runs a conv subcommand of isaac-model-test (ConvModelTest.cpp); -1 if
/// argv names none.
int runConvModelCommand(int argc, char **argv);

/// mlp-check of a conv model: train.py's conv test vectors against the C++
/// features and predictions.
int runConvMLPCheck(const isaac::MLPModel &model, const char *vecPath);

#endif // ISAAC_TEST_MODEL_CONVMODELTEST_H
