import React from 'react';
import { formatDate } from '../util/date.mjs';

/** Button renders a clickable label. */
export function Button({ label, onClick }) {
  return (
    <button type="button" onClick={onClick}>
      {label}
    </button>
  );
}

export const DateButton = ({ date, onClick }) => <Button label={formatDate(date)} onClick={onClick} />;

export default function Toolbar() {
  return (
    <div className="toolbar">
      <DateButton date={new Date()} />
      <Button label="Refresh" onClick={() => window.location.reload()} />
    </div>
  );
}
