import * as core from '@actions/core';

/** The action's outputs (action.yml). Every outcome sets all of them: empty when unknown. */
export interface Outputs {
  passed: boolean;
  'deploy-id': string;
  'scan-id': string;
  'new-issues': string;
  'details-url': string;
}

export function setOutputs(outputs: Outputs): void {
  core.setOutput('passed', outputs.passed ? 'true' : 'false');
  core.setOutput('deploy-id', outputs['deploy-id']);
  core.setOutput('scan-id', outputs['scan-id']);
  core.setOutput('new-issues', outputs['new-issues']);
  core.setOutput('details-url', outputs['details-url']);
}
